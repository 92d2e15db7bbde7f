/* asm_internal.h - what the parts of the assembler share (not for callers
 * outside isa/asm*.c; they use asm.h).
 *
 * The assembler is one pass over the tokens, split by concern:
 *   asm.c        the driver: token stream, error recovery, entries, the
 *                top-level loop, launches against entries, finishing a Program
 *   asm_expr.c   integer expressions and .define (prescan, -D, cycles)
 *   asm_decl.c   declarations: .reg, .shared/.const/.local, .param
 *   asm_instr.c  instructions: opcode and modifiers, operands
 *   asm_host.c   host directives: .buffer, .launch, .check
 *   asm_include.c  .include (whole modules), .file/.loc, .section
 *   asm_func.c   device functions: call, and linking .funcs into entries
 *   asm_for.c    host loops: .for ... .end, expanded into launches
 * All state hangs off one Asm context, passed to every function.
 */
#ifndef GPUSIM_ASM_INTERNAL_H
#define GPUSIM_ASM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "asm.h"
#include "diag.h"
#include "isa.h"
#include "lex.h"
#include "strmap.h"

enum {
    MAX_REGS = 65000,         /* per entry; REG_NONE must stay out of range */
    MAX_EXPR_DEPTH = 200,
    MAX_PARTS = 12,           /* dot-separated words in one opcode */
    MAX_CODE = 1 << 22,       /* instructions per entry */
    MAX_INCLUDE_DEPTH = 16,   /* files nested by .include */
};
#define MAX_BUFFER_BYTES (1ull << 32)

typedef struct DefSlot {
    char *name;
    size_t pos;               /* byte offset of the value expression */
    int line, col;            /* of the .define directive */
    int vline, vcol;          /* of the value */
    int state;                /* 0 new, 1 evaluating, 2 done */
    int ok;
    int64_t value;
    const char *override;     /* -D text, or NULL */
} DefSlot;

typedef struct Fixup { int pc, slot; char *name; int line, col; } Fixup;
typedef struct PendingLaunch { char *entry; int line, col; } PendingLaunch;
typedef struct ForVar {       /* an enclosing .for loop while its body is parsed */
    const char *name;          /* Program.loop_vars[var] */
    int var;
    int64_t value;             /* this iteration's */
    int line, col;             /* of the .for */
} ForVar;
typedef struct IncludeSite { size_t pos; int file; } IncludeSite;  /* .include at byte pos -> Program.files, -1: failed */

typedef struct Asm {
    const char *file;
    const char *src;
    size_t len;
    DiagList *dl;
    Lexer lx;
    Token la[3];
    int nla;
    int line_mode;            /* host directive: a token starting a line is EOL */
    int depth;                /* expression recursion */
    Program *p;
    const AsmOptions *opt;

    DefSlot *defs; int ndefs;
    StrMap defmap, entrymap, bufmap, modvars, funcmap;
    StrMap protomap;          /* .func prototypes (declared, maybe never defined) */
    int *def_stack; int ndef_stack;
    int stale_errors;         /* uses of a .define whose error is already reported */

    /* the entry being assembled */
    Entry *e;
    int entry_index;
    StrMap regmap, predmap, labelmap, entryvars, parammap;
    int capcode, capregs, cappreds, caplabels, capparams, capcalls;
    Fixup *fix; int nfix, capfix;
    uint32_t module_shared;   /* bytes of module-scope .shared */
    uint32_t module_local;

    PendingLaunch *pend; int npend;
    ForVar loops[MAX_FOR_DEPTH]; int nloops;   /* .for loops open here, outermost first */
    uint64_t for_iterations;  /* body runs of every .for so far (MAX_FOR_COUNT at most) */
    int for_capped;           /* that limit was reported */
    int loop_noted;           /* errors before this index have their loop values */
    char **check_names;       /* per .check: its buffer's name while unresolved */
    int capvars, capbuf, caplaunch, capcheck, capentries, capfuncs;

    /* whole modules (asm_include.c) */
    size_t srclen;                       /* bytes of Program.source */
    size_t *inc_start, *inc_end;         /* each file's bytes in Program.source */
    int capfiles;
    IncludeSite *incs; int nincs, capincs;
    Lexer inc_stack[MAX_INCLUDE_DEPTH];  /* the including files' lexers */
    int ninc_stack;
    SrcLoc cur_loc;                      /* the last .loc */
    int nounroll;                        /* a .pragma "nounroll" waits for the next instruction */
    int capcuda;
} Asm;


/* Grow arr (n used, cap allocated) so that arr[n] may be written. */
#define GROW(arr, n, cap) do { \
        if ((n) >= (cap)) { (cap) = (cap) ? (cap) * 2 : 8; \
            (arr) = asm_xrealloc((arr), (size_t)(cap) * sizeof *(arr)); } \
    } while (0)

/* ---- asm.c: utilities ----------------------------------------------------- */
/* realloc that aborts when out of memory (n == 0 allocates one byte). */
void *asm_xrealloc(void *p, size_t n);
/* A NUL-terminated copy of the n bytes at s. */
char *asm_xstrndup(const char *s, size_t n);
/* Whether the token's text is exactly s. */
int asm_tok_is(const Token *t, const char *s);
/* Report an error at t (file:line:col, or "-D" for a -D override's token). */
void asm_err(Asm *A, const Token *t, const char *fmt, ...) DIAG_PRINTF(3, 4);
/* What a token looks like in a message, quoted, written into buf. */
const char *asm_show(const Token *t, char *buf, size_t n);

/* ---- asm.c: token stream -------------------------------------------------- */
/* The k-th token ahead; in line mode, a token that starts a line is TOK_EOL. */
Token asm_peek_n(Asm *A, int k);
/* The next token, not consumed. */
Token asm_peek(Asm *A);
/* Consume and return the next token (never consumes EOL or EOF). */
Token asm_next(Asm *A);
/* Whether t is the punctuation c. */
int asm_is_punct(const Token *t, int c);
/* Consume the punctuation c if it is next; returns whether it was. */
int asm_accept(Asm *A, int c);
/* Consume the punctuation c, or report "expected 'c' context" and return -1. */
int asm_expect(Asm *A, int c, const char *context);
/* Error recovery: skip past the statement's ';' (or to the end of the line
 * in line mode), stopping before the '}' that closes the entry. */
void asm_skip_statement(Asm *A);
/* Error recovery inside braces already opened: skip past the matching '}'. */
void asm_skip_braces(Asm *A);
/* Skip to the end of the current line. */
void asm_skip_line(Asm *A);

/* ---- asm_expr.c: integer expressions and .define -------------------------- */
/* A 64-bit signed integer expression (.define names, min, max); 0 or -1. */
int asm_parse_expr(Asm *A, int64_t *out);
/* Binary operators of precedence min_prec and above (see asm_prec_of). */
int asm_parse_binary(Asm *A, int min_prec, int64_t *out);
/* The value of a .define name (an error if there is none). */
int asm_name_value(Asm *A, const Token *t, int64_t *out);
/* Precedence of a binary operator, lowest 1; 0 for anything else. */
int asm_prec_of(int punct);
/* Report an integer overflow at t; returns -1. */
int asm_overflow(Asm *A, const Token *t);
/* Why WARP_SZ cannot be part of an assemble-time expression. */
extern const char asm_warp_sz_hint[];
/* The quiet prescan: record every `.define NAME` at the start of a line. */
void asm_prescan_defines(Asm *A);
/* Attach the -D overrides to their .define (an unknown name is an error). */
void asm_apply_overrides(Asm *A);
/* The main pass's visit of a .define line: duplicates, then its value. */
void asm_check_define_line(Asm *A);

/* ---- asm_decl.c: declarations --------------------------------------------- */
/* Resolve a register token (declaring nvcc-named ones on first use); the
 * index, *is_pred says which file; -1 after an error. */
int asm_lookup_reg(Asm *A, const Token *t, int *is_pred);
/* The special register (SR_*) the token names, or -1. */
int asm_sreg_lookup(const Token *t);
/* .reg .TYPE %a, %b<4>, ...; (after the .reg) */
void asm_parse_reg_decl(Asm *A);
/* .shared/.const/.local [.align N] .TYPE name[N]... [= {...}]; dir is the
 * space directive, already consumed. */
void asm_parse_var_decl(Asm *A, const Token *dir, int is_extern);
/* The variable a name refers to (entry scope first), or -1. */
int asm_lookup_var(Asm *A, const Token *t);
/* An entry's parameter list, after its '('. */
void asm_parse_params(Asm *A);
/* `.param .TYPE name;` inside a body: call scratch in the frame. */
void asm_parse_frame_param(Asm *A);

/* ---- asm_func.c: device functions ------------------------------------------ */
/* The operands of `call`: [(rets),] func[, (args)]; 0 or -1. */
int asm_parse_call(Asm *A, Instr *in);
/* At the end of the file: append to each entry the .funcs it calls
 * (transitively), rebased, and point its calls at them. */
void asm_link_funcs(Asm *A);

/* ---- asm_instr.c: instructions -------------------------------------------- */
/* [@guard] opcode.modifiers operands ; appended to the current entry. */
void asm_parse_instruction(Asm *A);

/* ---- asm_host.c: host directives ------------------------------------------ */
/* The rest of a .buffer, .launch or .check line (each run in line mode by
 * asm_host_directive). */
void asm_parse_buffer(Asm *A);
void asm_parse_launch(Asm *A);
void asm_parse_check(Asm *A);
/* At the end: .check lines of buffers declared later (.global variables). */
void asm_resolve_checks(Asm *A);
/* A line-mode directive: run fn, then require the end of the line. */
void asm_host_directive(Asm *A, const Token *d, void (*fn)(Asm *));

/* ---- asm_for.c: host loops ------------------------------------------------ */
/* `.for VAR = A, B [, STEP]` (the directive consumed) up to its `.end`: the
 * body's .launch lines once per iteration, VAR running A, A+STEP, ...
 * while VAR < B (VAR > B for a negative STEP), as C's for loop. */
void asm_parse_for(Asm *A, const Token *dir);
/* The open loop whose variable t names, or -1 (always -1 inside a .define's
 * value: a .define has one value for the whole file). */
int asm_loop_var(const Asm *A, const Token *t);
/* Append " (at t=3 i=2)" to the errors from index `from` on. */
void asm_note_loop(Asm *A, int from, const char *values);

/* ---- asm_include.c: whole modules ------------------------------------------ */
/* Before parsing: load every file .include brings in (recursively) after
 * the kernel file's main_len bytes of Program.source; fill Program.files. */
void asm_load_includes(Asm *A, size_t main_len);
/* `.include "PATH"` (the directive consumed): lex that file next. */
void asm_include_push(Asm *A, const Token *d);
/* At the end of an included file: back to the including one; 0 if none. */
int asm_include_pop(Asm *A);
/* Give the errors from index `from` on their file and line there. */
void asm_include_fix_diags(Asm *A, int from);
/* .file NUM "PATH" / .loc FILE LINE COL ... (the directive consumed). */
void asm_parse_file(Asm *A);
void asm_parse_loc(Asm *A);
/* Record the current .loc for the instruction at program line `line`. */
void asm_note_loc(Asm *A, int line);
/* .section NAME { ... } (the directive consumed): skipped. */
void asm_skip_section(Asm *A);

#endif
