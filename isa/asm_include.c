/* asm_include.c - whole PTX modules: `.include "FILE"`, and what nvcc's
 * modules carry besides code: `.file`/`.loc` (kept: the CUDA line of each
 * PTX line) and `.section` (DWARF debug data, skipped with its braces).
 *
 * Included files are loaded before parsing: a quiet pass over each file
 * finds its `.include "PATH"` lines (PATH relative to the including file),
 * and each included file's text is appended to Program.source.  So the
 * whole program is one text, a line number names one line of one file
 * (Program.files says which), and the kernel file's own lines keep their
 * numbers.  While parsing, a `.include` pushes the lexer and lexes the
 * included file's part of the text; its end pops back (see peek_raw in
 * asm.c).  Errors found while loading (missing file, cycle, too deep) name
 * the .include's file:line:col; errors of the main pass are given their
 * file and line at the end (asm_include_fix_diags).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "asm_internal.h"

typedef struct Found { size_t pos; int line, col; char *path; } Found;

/* Lines of text[start, end): each starts at start or after a '\n'. */
static int count_lines(const char *s, size_t start, size_t end)
{
    if (end <= start) return 0;
    int n = 1;
    for (size_t i = start; i + 1 < end; i++) if (s[i] == '\n') n++;
    return n;
}

/* "a/./b/../c" -> "a/c", so that one file reached by two spellings is
 * recognised in a cycle.  Never longer than the input. */
static void normalize(char *p)
{
    enum { MAX_SEGS = 512 };
    size_t len = strlen(p);
    if (!len) return;
    int abs = p[0] == '/';
    char *c = asm_xstrndup(p, len);
    const char *seg[MAX_SEGS];
    size_t sl[MAX_SEGS];
    int n = 0;
    for (char *s = c; *s;) {
        while (*s == '/') s++;
        if (!*s) break;
        char *e = s;
        while (*e && *e != '/') e++;
        size_t k = (size_t)(e - s);
        int dot = k == 1 && s[0] == '.', dotdot = k == 2 && s[0] == '.' && s[1] == '.';
        if (dot || (dotdot && n == 0 && abs)) { /* nothing */ }
        else if (dotdot && n > 0 && !(sl[n - 1] == 2 && !memcmp(seg[n - 1], "..", 2))) n--;
        else if (n < MAX_SEGS) { seg[n] = s; sl[n] = k; n++; }
        s = e;
    }
    char *w = p;
    if (abs) *w++ = '/';
    for (int i = 0; i < n; i++) {
        if (i) *w++ = '/';
        memmove(w, seg[i], sl[i]);
        w += sl[i];
    }
    if (w == p) *w++ = '.';
    *w = '\0';
    free(c);
}

/* The included path: the string's text (\" and \\ unescaped), relative to
 * the including file's folder unless absolute. */
static char *resolve(const char *including, const Token *str)
{
    size_t n = (size_t)str->len - 2, k = 0;
    char *rel = asm_xrealloc(NULL, n + 1);
    for (size_t i = 1; i + 1 < (size_t)str->len; i++) {
        if (str->s[i] == '\\' && i + 2 < (size_t)str->len) i++;
        rel[k++] = str->s[i];
    }
    rel[k] = '\0';
    const char *slash = strrchr(including, '/');
    if (rel[0] == '/' || !slash) { normalize(rel); return rel; }
    size_t d = (size_t)(slash - including) + 1;
    char *full = asm_xrealloc(NULL, d + k + 1);
    memcpy(full, including, d);
    memcpy(full + d, rel, k + 1);
    free(rel);
    normalize(full);
    return full;
}

static char *read_all(const char *path, size_t *len, int *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) { *err = errno; return NULL; }
    struct stat st;
    /* a folder, /dev/zero or a pipe is not a module (and could be endless) */
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) { fclose(f); *err = EISDIR; return NULL; }
    size_t cap = 1 << 16, n = 0;
    char *buf = asm_xrealloc(NULL, cap);
    for (;;) {
        if (n == cap) {
            if (cap >= ((size_t)1 << 30)) { fclose(f); free(buf); *err = EFBIG; return NULL; }
            cap *= 2;
            buf = asm_xrealloc(buf, cap);
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        if (r == 0) break;
        n += r;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) { free(buf); *err = EIO; return NULL; }
    *len = n;
    return buf;
}

/* The `.include "PATH"` lines of file u, found quietly. */
static int scan_file(Asm *A, int u, Found **out)
{
    const Program *p = A->p;
    Lexer lx;
    lex_init(&lx, p->files[u].name, p->source, A->inc_end[u], NULL);
    lex_seek(&lx, A->inc_start[u], p->files[u].first_line, 1);
    int n = 0, cap = 0;
    *out = NULL;
    for (;;) {
        Token t = lex_next(&lx);
        if (t.kind == TOK_EOF) break;
        if (!(t.kind == TOK_DIRECTIVE && t.bol && asm_tok_is(&t, ".include"))) continue;
        Token s = lex_next(&lx);
        if (s.kind != TOK_STRING || s.bol || s.len <= 2) continue;   /* the main pass reports it */
        GROW(*out, n, cap);
        (*out)[n++] = (Found){ (size_t)(t.s - p->source), t.line, t.col, resolve(p->files[u].name, &s) };
    }
    return n;
}

/* Report an error at a .include of file u (its line is a program line). */
static void include_error(Asm *A, int u, const Found *f, const char *fmt, const char *a, const char *b)
{
    const Program *p = A->p;
    int local = f->line - p->files[u].first_line + 1;
    const char *src = p->source + f->pos - (size_t)(f->col - 1);
    diag_add(A->dl, p->files[u].name, local, f->col, src, fmt, a, b);
}

/* Load one included file (or report why not) and append its text. */
static int load_one(Asm *A, int u, const Found *f)
{
    Program *p = A->p;
    int depth = 0;   /* of the file to load: the kernel file is 0 */
    char chain[512] = "";
    for (int v = u; v >= 0; v = p->files[v].parent) depth++;
    for (int v = u; v >= 0; v = p->files[v].parent) {
        if (strcmp(p->files[v].name, f->path) != 0) continue;
        /* the chain from the file included again down to here: a -> b -> a */
        int path[MAX_INCLUDE_DEPTH + 1], n = 0;
        for (int w = u; n <= MAX_INCLUDE_DEPTH; w = p->files[w].parent) { path[n++] = w; if (w == v) break; }
        size_t k = 0;
        for (int i = n - 1; i >= 0 && k < sizeof chain; i--)
            k += (size_t)snprintf(chain + k, sizeof chain - k, "%s -> ", p->files[path[i]].name);
        if (k < sizeof chain) snprintf(chain + k, sizeof chain - k, "%s", f->path);
        include_error(A, u, f, ".include cycle: %s includes itself (%s)", f->path, chain);
        return -1;
    }
    if (depth > MAX_INCLUDE_DEPTH) {
        snprintf(chain, sizeof chain, "%d", MAX_INCLUDE_DEPTH);
        include_error(A, u, f, ".include of '%s': included files nest more than %s deep", f->path, chain);
        return -1;
    }
    size_t len = 0;
    int err = 0;
    char *text = read_all(f->path, &len, &err);
    if (!text) {
        include_error(A, u, f, "cannot open included file '%s': %s", f->path,
                      err == EISDIR ? "not a regular file" : strerror(err));
        return -1;
    }
    size_t have = A->srclen;
    if (have + len + 2 > ((size_t)1 << 31)) { free(text); include_error(A, u, f, ".include of '%s': %s", f->path, "the program is larger than 2 GiB"); return -1; }
    int nl = have > 0 && p->source[have - 1] != '\n';
    p->source = asm_xrealloc(p->source, have + (size_t)nl + len + 1);
    if (nl) p->source[have++] = '\n';
    memcpy(p->source + have, text, len);
    p->source[have + len] = '\0';
    free(text);
    A->srclen = have + len;
    int first = count_lines(p->source, 0, have) + 1;
    if (have == 0) first = 1;
    GROW(p->files, p->nfiles, A->capfiles);
    A->inc_start = asm_xrealloc(A->inc_start, (size_t)A->capfiles * sizeof *A->inc_start);
    A->inc_end = asm_xrealloc(A->inc_end, (size_t)A->capfiles * sizeof *A->inc_end);
    int id = p->nfiles++;
    p->files[id] = (SrcFile){ asm_xstrndup(f->path, strlen(f->path)), first, count_lines(p->source, have, have + len),
                              u, f->line };
    A->inc_start[id] = have;
    A->inc_end[id] = have + len;
    return id;
}

void asm_load_includes(Asm *A, size_t main_len)
{
    Program *p = A->p;
    GROW(p->files, p->nfiles, A->capfiles);
    A->inc_start = asm_xrealloc(NULL, (size_t)A->capfiles * sizeof *A->inc_start);
    A->inc_end = asm_xrealloc(NULL, (size_t)A->capfiles * sizeof *A->inc_end);
    p->files[0] = (SrcFile){ asm_xstrndup(p->filename, strlen(p->filename)), 1, count_lines(p->source, 0, main_len), -1, 0 };
    A->inc_start[0] = 0;
    A->inc_end[0] = main_len;
    p->nfiles = 1;
    A->srclen = main_len;
    for (int u = 0; u < p->nfiles; u++) {
        Found *fs;
        int n = scan_file(A, u, &fs);
        for (int i = 0; i < n; i++) {
            int id = load_one(A, u, &fs[i]);
            GROW(A->incs, A->nincs, A->capincs);
            A->incs[A->nincs++] = (IncludeSite){ fs[i].pos, id };
            free(fs[i].path);
        }
        free(fs);
    }
}

/* `.include "PATH"` in the main pass (the directive is consumed): lex the
 * included file next, then go on after this line. */
void asm_include_push(Asm *A, const Token *d)
{
    int saved = A->line_mode;
    A->line_mode = 1;
    Token s = asm_peek(A);
    char b[64];
    if (s.kind != TOK_STRING) {
        if (s.kind == TOK_EOL || s.kind == TOK_EOF) asm_err(A, d, ".include needs a file name in quotes");
        else if (s.kind != TOK_ERROR) asm_err(A, &s, "expected a file name in quotes after .include, got %s", asm_show(&s, b, sizeof b));
        asm_skip_line(A);
        A->line_mode = saved;
        return;
    }
    asm_next(A);
    if (s.len <= 2) asm_err(A, &s, ".include needs a file name");
    Token t = asm_peek(A);
    if (asm_is_punct(&t, ';')) { asm_next(A); t = asm_peek(A); }
    if (t.kind != TOK_EOL && t.kind != TOK_EOF) {
        asm_err(A, &t, "unexpected %s after .include \"...\"", asm_show(&t, b, sizeof b));
        asm_skip_line(A);
    }
    A->line_mode = saved;
    size_t pos = (size_t)(d->s - A->src);
    int site = -1;
    for (int i = 0; i < A->nincs; i++) if (A->incs[i].pos == pos) site = i;
    if (site < 0) { if (s.len > 2) asm_err(A, d, ".include must start its line"); return; }
    int id = A->incs[site].file;
    if (id < 0) return;                       /* reported while loading */
    if (A->ninc_stack >= MAX_INCLUDE_DEPTH) abort();   /* loading bounds the depth */
    /* the outer file goes on where its first unread token starts */
    Lexer outer = A->lx;
    if (A->nla) {
        lex_seek(&outer, (size_t)(A->la[0].s - A->src), A->la[0].line, A->la[0].col);
        outer.at_bol = A->la[0].bol;
        A->nla = 0;
    }
    A->inc_stack[A->ninc_stack++] = outer;
    lex_init(&A->lx, A->file, A->src, A->inc_end[id], A->dl);
    lex_seek(&A->lx, A->inc_start[id], A->p->files[id].first_line, 1);
    if (A->inc_end[id] - A->inc_start[id] >= 3 && memcmp(A->src + A->inc_start[id], "\xEF\xBB\xBF", 3) == 0)
        A->lx.pos += 3;
}

int asm_include_pop(Asm *A)
{
    if (!A->ninc_stack || A->ndef_stack) return 0;
    A->lx = A->inc_stack[--A->ninc_stack];
    return 1;
}

/* Main-pass errors carry program lines and the kernel file's name: give
 * each its file and line. */
void asm_include_fix_diags(Asm *A, int from) { program_fix_diags(A->p, A->dl, from); }

/* ---- .file, .loc, .section ------------------------------------------------ */

/* `.file NUM "PATH" [, TIMESTAMP, SIZE]` (consumed: .file). */
void asm_parse_file(Asm *A)
{
    int saved = A->line_mode;
    A->line_mode = 1;
    Token n = asm_peek(A);
    if (n.kind == TOK_INT) {
        asm_next(A);
        Token s = asm_peek(A);
        if (s.kind == TOK_STRING) {
            Program *p = A->p;
            int local;
            const char *f = program_where(p, n.line, &local);
            int src = 0;
            for (int i = 0; i < p->nfiles; i++) if (p->files[i].name == f) src = i;
            GROW(p->cuda_files, p->ncuda_files, A->capcuda);
            p->cuda_files[p->ncuda_files++] = (CudaFile){ (uint32_t)n.ival, src, asm_xstrndup(s.s + 1, (size_t)s.len - 2) };
        }
    }
    asm_skip_line(A);
    A->line_mode = saved;
    asm_accept(A, ';');
}

/* `.loc FILE LINE COL [, function_name NAME, inlined_at FILE LINE COL]`:
 * the instructions that follow come from that CUDA line; for code inlined
 * from a header (an intrinsic) the line it was inlined at is the one a
 * reader knows, so inlined_at wins. */
void asm_parse_loc(Asm *A)
{
    int saved = A->line_mode;
    A->line_mode = 1;
    Token f = asm_peek_n(A, 0), l = asm_peek_n(A, 1);
    if (f.kind == TOK_INT && l.kind == TOK_INT) A->cur_loc = (SrcLoc){ (uint32_t)f.ival, (uint32_t)l.ival };
    for (;;) {
        Token t = asm_peek(A);
        if (t.kind == TOK_EOL || t.kind == TOK_EOF) break;
        asm_next(A);
        if (t.kind == TOK_IDENT && asm_tok_is(&t, "inlined_at")) {
            f = asm_peek_n(A, 0); l = asm_peek_n(A, 1);
            if (f.kind == TOK_INT && l.kind == TOK_INT) A->cur_loc = (SrcLoc){ (uint32_t)f.ival, (uint32_t)l.ival };
        }
    }
    A->line_mode = saved;
    asm_accept(A, ';');
}

/* The CUDA line of the instruction just assembled at program line `line`. */
void asm_note_loc(Asm *A, int line)
{
    Program *p = A->p;
    if (!A->cur_loc.file || line < 1 || line > p->nlines) return;
    if (!p->locs) {
        p->locs = asm_xrealloc(NULL, (size_t)(p->nlines + 1) * sizeof *p->locs);
        memset(p->locs, 0, (size_t)(p->nlines + 1) * sizeof *p->locs);
    }
    p->locs[line] = A->cur_loc;
}

/* `.section NAME { ... }` (consumed: .section): DWARF data nvcc appends for
 * -lineinfo and -G; nothing in it executes. */
void asm_skip_section(Asm *A)
{
    int saved = A->line_mode;
    A->line_mode = 1;
    Token t = asm_peek(A);
    while (t.kind != TOK_EOL && t.kind != TOK_EOF && !asm_is_punct(&t, '{')) { asm_next(A); t = asm_peek(A); }
    A->line_mode = saved;
    t = asm_peek(A);
    if (!asm_is_punct(&t, '{')) return;
    Token open = t;
    int depth = 0;
    for (;;) {
        t = asm_peek(A);
        if (t.kind == TOK_EOF) { asm_err(A, &open, "missing '}' at the end of a .section"); return; }
        asm_next(A);
        if (asm_is_punct(&t, '{')) depth++;
        else if (asm_is_punct(&t, '}') && --depth == 0) return;
    }
}
