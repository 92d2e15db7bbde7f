/* lex.h - tokens of the kernel-file language (PTX plus host directives).
 *
 * A streaming lexer: it hands out one token at a time, so a 100 MB line or
 * a megabyte of binary garbage costs no memory.  Every token records its
 * line and column and whether it is the first on its line (host directives
 * such as `.define` end at the end of their line, PTX statements at ';').
 */
#ifndef GPUSIM_LEX_H
#define GPUSIM_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

typedef enum TokKind {
    TOK_EOF, TOK_EOL,      /* TOK_EOL is synthesised by the parser in line mode */
    TOK_IDENT,             /* name, may contain dots: ld.global.f32, $L__BB0_2 */
    TOK_DIRECTIVE,         /* .entry, .f32, .v4 */
    TOK_REG,               /* %r1, %tid.x, %r (as in %r<44>) */
    TOK_INT, TOK_FLOAT, TOK_STRING,
    TOK_PUNCT,             /* , ; : [ ] ( ) { } < > + - * / % & | ^ ~ ! = @ and << >> <= >= == != */
    TOK_ERROR              /* already reported */
} TokKind;

typedef struct Token {
    TokKind kind;
    const char *s;         /* points into the source */
    int len;
    int line, col;
    int bol;               /* first token on its line */
    int punct;             /* TOK_PUNCT: the char, or a two-char code (see lex.c) */
    uint64_t ival;         /* TOK_INT */
    double fval;           /* TOK_FLOAT (decimal or 0d) */
    int fbits;             /* TOK_FLOAT: 32 for 0f literals, 64 otherwise */
} Token;

/* two-character punctuators */
enum { P_SHL = 256, P_SHR, P_LE, P_GE, P_EQ, P_NE, P_ANDAND, P_OROR };

typedef struct Lexer {
    const char *file;
    const char *src;       /* not necessarily NUL-terminated */
    size_t len, pos;
    int line, col;
    int at_bol;
    DiagList *dl;          /* NULL: lex quietly (the .define prescan) */
} Lexer;

void lex_init(Lexer *lx, const char *file, const char *src, size_t len, DiagList *dl);
/* Start at byte offset pos, which is at (line, col). */
void lex_seek(Lexer *lx, size_t pos, int line, int col);
Token lex_next(Lexer *lx);
/* The source line containing byte offset pos (for error carets). */
const char *lex_line_start(const Lexer *lx, const char *p);

#endif
