/* lex.c - see lex.h.  Follows the PTX manual's lexical rules: identifiers
 * [a-zA-Z_$][a-zA-Z0-9_$]* (we also keep dots inside, so an opcode with its
 * modifiers is one token), %registers, .directives, decimal/hex/octal/binary
 * integers with an optional U suffix, 0fXXXXXXXX and 0dXXXXXXXXXXXXXXXX float
 * bit patterns, and decimal floats. */
#include "lex.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_TOKEN_LEN = 1024 };

void lex_init(Lexer *lx, const char *file, const char *src, size_t len, DiagList *dl)
{
    memset(lx, 0, sizeof *lx);
    lx->file = file;
    lx->src = src;
    lx->len = len;
    lx->line = 1;
    lx->col = 1;
    lx->at_bol = 1;
    lx->dl = dl;
    /* a UTF-8 byte-order mark (some Windows editors write one) is not text */
    if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0) lx->pos = 3;
}

void lex_seek(Lexer *lx, size_t pos, int line, int col)
{
    lx->pos = pos;
    lx->line = line;
    lx->col = col;
    lx->at_bol = 1;
}

const char *lex_line_start(const Lexer *lx, const char *p)
{
    while (p > lx->src && p[-1] != '\n') p--;
    return p;
}

static int peekc(const Lexer *lx, size_t k)
{
    return lx->pos + k < lx->len ? (unsigned char)lx->src[lx->pos + k] : -1;
}

static void advance(Lexer *lx)
{
    if (lx->pos >= lx->len) return;
    if (lx->src[lx->pos] == '\n') { lx->line++; lx->col = 1; lx->at_bol = 1; }
    else lx->col++;
    lx->pos++;
}

static void error_at(Lexer *lx, int line, int col, const char *at, const char *fmt, const char *arg)
{
    if (lx->dl) diag_add(lx->dl, lx->file, line, col, lex_line_start(lx, at), fmt, arg);
}

static int is_ident_start(int c) { return isalpha(c) || c == '_' || c == '$'; }
static int is_ident_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* Skip blanks and comments; returns 0 or -1 after an unterminated comment. */
static void skip_space(Lexer *lx)
{
    for (;;) {
        int c = peekc(lx, 0);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') { advance(lx); continue; }
        if (c == '/' && peekc(lx, 1) == '/') {
            while (peekc(lx, 0) != -1 && peekc(lx, 0) != '\n') advance(lx);
            continue;
        }
        if (c == '/' && peekc(lx, 1) == '*') {
            int line = lx->line, col = lx->col;
            const char *at = lx->src + lx->pos;
            advance(lx); advance(lx);
            while (peekc(lx, 0) != -1 && !(peekc(lx, 0) == '*' && peekc(lx, 1) == '/')) advance(lx);
            if (peekc(lx, 0) == -1) { error_at(lx, line, col, at, "unterminated /* comment%s", ""); return; }
            advance(lx); advance(lx);
            continue;
        }
        return;
    }
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void lex_number(Lexer *lx, Token *t)
{
    const char *s = lx->src + lx->pos;
    size_t avail = lx->len - lx->pos;
    t->kind = TOK_INT;
    /* 0f / 0d: IEEE bit patterns */
    if (avail >= 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
        int ndig = (s[1] == 'f' || s[1] == 'F') ? 8 : 16;
        size_t n = 2;
        uint64_t bits = 0;
        while (n < avail && hexval((unsigned char)s[n]) >= 0) bits = (bits << 4) | (uint64_t)hexval((unsigned char)s[n++]);
        if (n - 2 != (size_t)ndig) {
            error_at(lx, lx->line, lx->col, s, ndig == 8 ? "%s literal needs exactly 8 hex digits (0f3F800000 is 1.0f)"
                                                         : "%s literal needs exactly 16 hex digits", ndig == 8 ? "0f" : "0d");
            t->kind = TOK_ERROR;
        } else if (ndig == 8) {
            uint32_t b32 = (uint32_t)bits;
            float f;
            memcpy(&f, &b32, 4);
            t->kind = TOK_FLOAT; t->fval = f; t->fbits = 32; t->ival = b32;
        } else {
            double d;
            memcpy(&d, &bits, 8);
            t->kind = TOK_FLOAT; t->fval = d; t->fbits = 64; t->ival = bits;
        }
        for (size_t i = 0; i < n; i++) advance(lx);
        return;
    }
    /* decimal float? digits followed by '.' digit or exponent */
    size_t n = 0;
    while (n < avail && isdigit((unsigned char)s[n])) n++;
    int is_float = 0;
    if (n < avail && s[n] == '.' && n + 1 < avail && isdigit((unsigned char)s[n + 1])) is_float = 1;
    if (n < avail && (s[n] == 'e' || s[n] == 'E')) {
        size_t k = n + 1;
        if (k < avail && (s[k] == '+' || s[k] == '-')) k++;
        if (k < avail && isdigit((unsigned char)s[k])) is_float = 1;
    }
    if (is_float) {
        size_t k = n;
        if (k < avail && s[k] == '.') { k++; while (k < avail && isdigit((unsigned char)s[k])) k++; }
        if (k < avail && (s[k] == 'e' || s[k] == 'E')) {
            k++;
            if (k < avail && (s[k] == '+' || s[k] == '-')) k++;
            while (k < avail && isdigit((unsigned char)s[k])) k++;
        }
        char buf[128];
        size_t m = k < sizeof buf - 1 ? k : sizeof buf - 1;
        memcpy(buf, s, m);
        buf[m] = '\0';
        t->kind = TOK_FLOAT; t->fval = strtod(buf, NULL); t->fbits = 64;
        for (size_t i = 0; i < k; i++) advance(lx);
        return;
    }
    /* integers: 0x hex, 0b binary, 0 octal (as PTX), decimal; optional U */
    int base = 10;
    size_t k = 0;
    if (avail >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { base = 16; k = 2; }
    else if (avail >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) { base = 2; k = 2; }
    else if (avail >= 2 && s[0] == '0' && isdigit((unsigned char)s[1])) { base = 8; k = 1; }
    size_t start = k;
    uint64_t v = 0;
    int overflow = 0, bad_digit = 0;
    while (k < avail && isalnum((unsigned char)s[k])) {
        int d = hexval((unsigned char)s[k]);
        if ((s[k] == 'U' || s[k] == 'u') && k > start && (k + 1 >= avail || !is_ident_char((unsigned char)s[k + 1]))) { k++; break; }
        if (d < 0 || d >= base) bad_digit = 1;
        else {
            if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) overflow = 1;
            v = v * (uint64_t)base + (uint64_t)d;
        }
        k++;
    }
    if (k == start) bad_digit = 1;
    if (bad_digit) { error_at(lx, lx->line, lx->col, s, "malformed number%s", ""); t->kind = TOK_ERROR; }
    else if (overflow) { error_at(lx, lx->line, lx->col, s, "integer literal does not fit in 64 bits%s", ""); t->kind = TOK_ERROR; }
    t->ival = v;
    for (size_t i = 0; i < k; i++) advance(lx);
}

static int two_char(int a, int b)
{
    if (a == '<' && b == '<') return P_SHL;
    if (a == '>' && b == '>') return P_SHR;
    if (a == '<' && b == '=') return P_LE;
    if (a == '>' && b == '=') return P_GE;
    if (a == '=' && b == '=') return P_EQ;
    if (a == '!' && b == '=') return P_NE;
    if (a == '&' && b == '&') return P_ANDAND;
    if (a == '|' && b == '|') return P_OROR;
    return 0;
}

Token lex_next(Lexer *lx)
{
    Token t;
    memset(&t, 0, sizeof t);
    skip_space(lx);
    t.line = lx->line;
    t.col = lx->col;
    t.bol = lx->at_bol;
    t.s = lx->src + lx->pos;
    lx->at_bol = 0;
    int c = peekc(lx, 0);
    if (c == -1) { t.kind = TOK_EOF; return t; }

    size_t start = lx->pos;
    if (is_ident_start(c) || ((c == '.' || c == '%') && is_ident_start(peekc(lx, 1)))) {
        t.kind = c == '.' ? TOK_DIRECTIVE : c == '%' ? TOK_REG : TOK_IDENT;
        advance(lx);
        /* PTX's `::` qualifiers (.shared::cta, .L1::no_allocate) stay part of
         * the word, and so do the dot-suffixes after them (ld.shared::cta.f32) */
        for (;;) {
            if (is_ident_char(peekc(lx, 0)) ||
                (t.kind != TOK_DIRECTIVE && peekc(lx, 0) == '.' && is_ident_char(peekc(lx, 1))))
                advance(lx);
            else if (peekc(lx, 0) == ':' && peekc(lx, 1) == ':' && is_ident_char(peekc(lx, 2))) {
                advance(lx); advance(lx);
            } else break;
        }
    } else if (isdigit(c)) {
        lex_number(lx, &t);
    } else if (c == '"') {
        advance(lx);
        while (peekc(lx, 0) != -1 && peekc(lx, 0) != '"' && peekc(lx, 0) != '\n') {
            if (peekc(lx, 0) == '\\' && peekc(lx, 1) != -1 && peekc(lx, 1) != '\n') advance(lx);
            advance(lx);
        }
        if (peekc(lx, 0) != '"') {
            error_at(lx, t.line, t.col, t.s, "unterminated string%s", "");
            t.kind = TOK_ERROR;
        } else {
            advance(lx);
            t.kind = TOK_STRING;
        }
    } else if (c != '\0' && strchr(",;:[](){}<>+-*/%&|^~!=@", c)) {   /* strchr finds the NUL too */
        t.kind = TOK_PUNCT;
        int two = two_char(c, peekc(lx, 1));
        advance(lx);
        if (two) { advance(lx); t.punct = two; }
        else t.punct = c;
    } else {
        char shown[16];
        if (c >= 0x21 && c < 0x7f) snprintf(shown, sizeof shown, "'%c'", c);
        else snprintf(shown, sizeof shown, "byte 0x%02x", c);
        error_at(lx, t.line, t.col, t.s, "unexpected %s", shown);
        advance(lx);
        /* swallow the rest of a run of garbage so it costs one error */
        while (peekc(lx, 0) != -1 && peekc(lx, 0) != '\n' && !isprint(peekc(lx, 0))) advance(lx);
        t.kind = TOK_ERROR;
    }
    t.len = (int)(lx->pos - start > (size_t)MAX_TOKEN_LEN * 1024 ? MAX_TOKEN_LEN * 1024 : lx->pos - start);
    if (t.len > MAX_TOKEN_LEN && t.kind != TOK_ERROR) {
        error_at(lx, t.line, t.col, t.s, "token is too long (more than %s characters)", "1024");
        t.kind = TOK_ERROR;
    }
    return t;
}
