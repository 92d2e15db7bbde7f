/* embed.c - build-time generator: the trace viewer's web files into C.
 *
 *     embed sim/front/viewer/viewer.html build/gen/viewer_data.c
 *
 * reads the page template and writes a C file that defines
 *
 *     const char *const trace_viewer_head[] = { "line\n", ..., NULL };
 *     const char *const trace_viewer_tail[] = { ... , NULL };
 *
 * which sim/front/trace.c writes around the trace data.  The template is
 * ordinary HTML with two kinds of placeholder:
 *
 *   - a line that is exactly {{FILE}} (FILE in the template's folder, e.g.
 *     {{viewer.css}}) is replaced, newline included, by FILE's bytes; FILE
 *     must end with a newline;
 *   - {{data}}, exactly once, anywhere: where the data goes; the page
 *     before it is the head, the page after it the tail.
 *
 * One C string per line of the page keeps every literal short.  The output
 * is a pure function of the input bytes and the two paths given, so a
 * rebuild gives the same file.  It is written beside OUT and renamed into
 * place, so a failed run never leaves a half-written OUT for make to trust.
 * Part of the build, not of libgpusim: libc only, no tool beyond the C
 * compiler (see sim/front/viewer/README.md). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DATA_MARK "{{data}}"

typedef struct Buf { char *p; size_t n, cap; } Buf;

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("embed: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void put(Buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->n + n + 1 > cap) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) die("out of memory");
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

/* The whole file; a NUL byte is refused (the page is written with fputs). */
static Buf slurp(const char *path)
{
    Buf b = { 0 };
    FILE *f = fopen(path, "rb");
    if (!f) die("%s: cannot open", path);
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) put(&b, chunk, n);
    if (ferror(f)) die("%s: read error", path);
    fclose(f);
    put(&b, "", 0);
    if (strlen(b.p) != b.n) die("%s: contains a NUL byte", path);
    return b;
}

/* If line (len bytes, no newline) is {{NAME}} with NAME not "data", the
 * NAME; else NULL. */
static const char *include_name(const char *line, size_t len, char *name, size_t cap)
{
    if (len < 5 || strncmp(line, "{{", 2) != 0 || strncmp(line + len - 2, "}}", 2) != 0) return NULL;
    size_t n = len - 4;
    if (n >= cap) return NULL;
    memcpy(name, line + 2, n);
    name[n] = 0;
    if (!strcmp(name, "data") || strpbrk(name, "{}/ \t")) return NULL;
    return name;
}

/* The template with its {{FILE}} lines replaced by the files. */
static Buf expand(const char *tpl_path)
{
    Buf tpl = slurp(tpl_path), page = { 0 };
    const char *slash = strrchr(tpl_path, '/');
    size_t dir_len = slash ? (size_t)(slash - tpl_path) + 1 : 0;
    int lineno = 0;
    for (const char *s = tpl.p; *s;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        char name[256], path[1024];
        lineno++;
        if (include_name(s, len, name, sizeof name)) {
            if (dir_len + strlen(name) + 1 > sizeof path) die("%s:%d: path too long", tpl_path, lineno);
            memcpy(path, tpl_path, dir_len);
            strcpy(path + dir_len, name);
            Buf inc = slurp(path);
            if (inc.n == 0 || inc.p[inc.n - 1] != '\n')
                die("%s:%d: %s must end with a newline", tpl_path, lineno, path);
            put(&page, inc.p, inc.n);
            free(inc.p);
        } else {
            put(&page, s, len + (nl != NULL));
        }
        s += len + (nl != NULL);
    }
    free(tpl.p);
    return page;
}

/* One C string per line of s[0..n): "...\n", with every byte a C compiler
 * could read otherwise escaped (quotes, backslashes, control and non-ASCII
 * bytes as octal, and "??" so no trigraph forms under -std=c11). */
static void write_lines(FILE *f, const char *name, const char *s, size_t n)
{
    fprintf(f, "const char *const %s[] = {\n", name);
    size_t i = 0;
    while (i < n) {
        fputs("    \"", f);
        char prev = 0;
        for (; i < n; i++) {
            unsigned char c = (unsigned char)s[i];
            if (c == '\n') { fputs("\\n", f); i++; break; }
            if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
            else if (c == '\t') fputs("\\t", f);
            else if (c == '?' && prev == '?') fputs("\\?", f);
            else if (c < 0x20 || c >= 0x7f) fprintf(f, "\\%03o", c);
            else fputc(c, f);
            prev = (char)c;
        }
        fputs("\",\n", f);
    }
    fputs("    0\n};\n", f);
}

int main(int argc, char **argv)
{
    if (argc != 3) die("usage: embed TEMPLATE.html OUT.c");
    const char *tpl = argv[1], *out = argv[2];
    Buf page = expand(tpl);
    char *mark = strstr(page.p, DATA_MARK);
    if (!mark) die("%s: no %s placeholder (where the trace data goes)", tpl, DATA_MARK);
    if (strstr(mark + 1, DATA_MARK)) die("%s: more than one %s placeholder", tpl, DATA_MARK);
    size_t head_n = (size_t)(mark - page.p), tail_at = head_n + strlen(DATA_MARK);

    char tmp[1024];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", out) >= (int)sizeof tmp) die("%s: path too long", out);
    FILE *f = fopen(tmp, "w");
    if (!f) die("%s: cannot write", tmp);
    fprintf(f, "/* Generated by sim/front/viewer/embed.c from %s and the files it includes.\n"
               " * Do not edit: edit the web files in sim/front/viewer/ and run make. */\n\n",
            tpl);
    write_lines(f, "trace_viewer_head", page.p, head_n);
    fputc('\n', f);
    write_lines(f, "trace_viewer_tail", page.p + tail_at, page.n - tail_at);
    if (ferror(f) | fclose(f)) die("%s: write error", tmp);
    if (rename(tmp, out)) die("%s: cannot rename to %s", tmp, out);
    free(page.p);
    return 0;
}
