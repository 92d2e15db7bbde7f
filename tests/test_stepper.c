/* test_stepper.c - the interactive stepper (sim/front/stepper.c), driven
 * through a pseudo-terminal as a student would drive it: the test opens a
 * pty pair (posix_openpt, grantpt, unlockpt, ptsname), runs the binary with
 * the terminal as its stdin and stdout, types commands at the "(gpusim) "
 * prompt and reads the screen.
 *
 * The run is kernels/evenodd.s at N=8 on configs/tiny.ini: one warp of 8
 * lanes.  The figures were read off the screen once and checked by hand
 * against the model: `ld.param` has the fixed latency lat.param (4 in
 * tiny.ini), so %rd1 issued at cycle 1 is ready at 5; line 58 is the
 * divergent `@!%p2 bra ODD` (even lanes fall through to pc 16 first, the odd
 * ones wait at 18, both rejoin at 19); out[3] is written by lane 3 of the
 * store at line 64.  The runs use core.schedule=source (the PTX as written,
 * as the labs do), so the cycles are those of the listing a student reads.
 * Without a terminal, --step prints as before (test_cli.c pins that output).
 * Run from the repo root.
 */
#define _XOPEN_SOURCE 600
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct Pty {
    int fd;
    pid_t pid;
    char *screen;            /* everything read so far */
    size_t len, cap;
    size_t mark;             /* where the reply to the last command starts */
} Pty;

static const char *bin(void)
{
    const char *b = getenv("GPUSIM");
    return b && *b ? b : "./gpusim";
}

static void pty_start(Pty *p, char *const argv[])
{
    memset(p, 0, sizeof *p);
    p->fd = posix_openpt(O_RDWR | O_NOCTTY);
    assert_true(p->fd >= 0);
    assert_int_equal(grantpt(p->fd), 0);
    assert_int_equal(unlockpt(p->fd), 0);
    const char *slave = ptsname(p->fd);
    assert_non_null(slave);
    p->pid = fork();
    assert_true(p->pid >= 0);
    if (p->pid == 0) {
        setsid();
        int s = open(slave, O_RDWR);
        if (s < 0) _exit(127);
        dup2(s, 0);
        dup2(s, 1);
        dup2(s, 2);
        if (s > 2) close(s);
        close(p->fd);
        setenv("NO_COLOR", "1", 1);
        execv(argv[0], argv);
        _exit(127);
    }
}

/* Read until the screen ends with the prompt (1), the program ends (0), or
 * 30 s pass (-1). */
static int pty_read(Pty *p)
{
    time_t end = time(NULL) + 30;
    while (time(NULL) < end) {
        struct pollfd pf = { p->fd, POLLIN, 0 };
        if (poll(&pf, 1, 200) <= 0) continue;
        if (p->len + 4096 + 1 > p->cap) {
            p->cap = (p->cap + 4096) * 2;
            p->screen = realloc(p->screen, p->cap);
            assert_non_null(p->screen);
        }
        ssize_t n = read(p->fd, p->screen + p->len, 4096);
        if (n <= 0) return 0;              /* EIO: the other end closed */
        /* the terminal writes "\r\n" for "\n" (onlcr): drop the \r */
        size_t k = p->len;
        for (ssize_t i = 0; i < n; i++)
            if (p->screen[p->len + (size_t)i] != '\r') p->screen[k++] = p->screen[p->len + (size_t)i];
        p->len = k;
        p->screen[p->len] = '\0';
        if (p->len >= 9 && !memcmp(p->screen + p->len - 9, "(gpusim) ", 9)) return 1;
    }
    return -1;
}

/* Type a command and read up to the next prompt (or the end). */
static int type(Pty *p, const char *cmd)
{
    p->mark = p->len;
    assert_int_equal(write(p->fd, cmd, strlen(cmd)), (ssize_t)strlen(cmd));
    assert_int_equal(write(p->fd, "\n", 1), 1);
    return pty_read(p);
}

/* The reply to the last command contains text (runs of blanks compare as
 * they are: the screen is fixed-width). */
static void see(const Pty *p, const char *text)
{
    if (!strstr(p->screen + p->mark, text)) {
        print_error("expected on the screen:\n%s\n--- the screen since the last command:\n%s\n", text,
                    p->screen + p->mark);
        fail();
    }
}

static int pty_finish(Pty *p)
{
    while (pty_read(p) > 0) {}
    int st = 0;
    waitpid(p->pid, &st, 0);
    close(p->fd);
    free(p->screen);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void walk_evenodd(void **state)
{
    (void)state;
    char *const argv[] = { (char *)bin(), "--step", "--set", "core.schedule=source", "-D", "N=8", "-D", "BLOCK=8", "configs/tiny.ini",
                           "kernels/evenodd.s", NULL };
    Pty p;
    pty_start(&p, argv);
    assert_int_equal(pty_read(&p), 1);
    see(&p, "gpusim: stepping. n next cycle, s next instruction, c continue, h help");
    see(&p, "cycle 0  SM 0\n");
    see(&p, "focus: block 0 warp 0, next pc 0 (line 41): ld.param.u64 %rd1, [in];");

    /* n: the next cycle; the row of the warp that issued shows the pc that
     * issued (0), the focus its next one (1) and what the scoreboard waits on */
    assert_int_equal(type(&p, "n"), 1);
    see(&p, "cycle 1  SM 0\n  scheduler 0 issued block 0 warp 0  pc 0 (line 41): ld.param.u64 %rd1, [in];");
    see(&p, "* 0     0      0        0    41  11111111  issued: ld.param.u64 %rd1, [in];");
    see(&p, "focus: block 0 warp 0, next pc 1 (line 42): ld.param.u64 %rd2, [out];");
    see(&p, "  scoreboard: %rd1: wait (fixed latency), ready at cycle 5;");

    assert_int_equal(type(&p, "h"), 1);
    see(&p, "n next cycle | s next instruction of the focused warp | c continue | b LINE [if block=B warp=W]");
    assert_int_equal(type(&p, "x"), 1);
    see(&p, "unknown command 'x': h for help");

    /* b and c: stop where the divergent branch issues */
    assert_int_equal(type(&p, "b 58 if block=0 warp=0"), 1);
    see(&p, "breakpoint 1 at line 58 if block=0 warp=0");
    assert_int_equal(type(&p, "b 3"), 1);
    see(&p, "line 3 has no instruction");
    assert_int_equal(type(&p, "c"), 1);
    see(&p, "cycle 36  SM 0   stopped: breakpoint 1, line 58, block 0 warp 0");
    see(&p, "  active mask 1.1.1.1.   state selected\n  SIMT stack (top first):\n"
            "    pc   16  reconverge 19    1.1.1.1.\n"
            "    pc   18  reconverge 19    .1.1.1.1\n"
            "    pc   19  reconverge -     11111111\n");
    see(&p, "  scoreboard: %f1: long_scoreboard (global/local load), until the memory system answers;");

    /* p: a predicate and a register across the lanes */
    assert_int_equal(type(&p, "p %p2"), 1);
    see(&p, "%p2, lanes 0-7: 10101010");
    assert_int_equal(type(&p, "p %r1"), 1);
    see(&p, "%r1 of block 0 warp 0, by lane:\n   0:          0          1          2          3          4          5"
            "          6          7");
    /* a register past its last use keeps its value under --step, where
     * each has a row of its own (kernel_pack_rows is off): %r3 (%ctaid.x,
     * last read at line 47) shares its row with %r6 (i & 1, written at
     * line 56) when rows are shared */
    assert_int_equal(type(&p, "p %r3"), 1);
    see(&p, "%r3 of block 0 warp 0, by lane:\n   0:          0          0          0          0          0          0"
            "          0          0");

    /* s: the focused warp's next instruction, however many cycles away */
    assert_int_equal(type(&p, "s"), 1);
    see(&p, "cycle 85  SM 0\n  scheduler 0 issued block 0 warp 0  pc 16 (line 59): mul.f32 %f2, %f1, 0f40000000;");

    /* w: stop when out[3] changes, and say who wrote it */
    assert_int_equal(type(&p, "w out[3]"), 1);
    see(&p, "watching out[3] (now 0)");
    assert_int_equal(type(&p, "c"), 1);
    see(&p, "stopped: watch: out[3] changed from 0 (0 as .f32) to 1041578792 (0.145733), written by block 0 warp 0 "
            "lane 3, pc 19, cycle 93");
    see(&p, "issued: st.global.f32 [%rd5], %f2;");

    /* q: run to the end; the report follows */
    assert_int_equal(type(&p, "q"), 0);
    see(&p, "check out        PASS");
    assert_int_equal(pty_finish(&p), 0);
}

/* docs/labs/06-find-the-bug.md's session: tests/data/blur_nobar.s on
 * tiny.ini (8-lane warps).  tile[8] is thread 7's word (warp 0, lane 7,
 * the store at line 55), read as tile[t] by thread 8 (warp 1, lane 0, the
 * load at line 80).  The watch shows who wrote it and when; the breakpoint
 * shows warp 1 reading it 311 cycles later, and lane 0 of %f7 holds the
 * value the watch saw: no barrier, but the timing happened to be kind. */
static void walk_blur_race(void **state)
{
    (void)state;
    char *const argv[] = { (char *)bin(), "--step", "--set", "core.schedule=source", "configs/tiny.ini", "tests/data/blur_nobar.s", NULL };
    Pty p;
    pty_start(&p, argv);
    assert_int_equal(pty_read(&p), 1);
    assert_int_equal(type(&p, "w tile[8]"), 1);
    see(&p, "watching tile[8] of block 0 (now 0)");
    assert_int_equal(type(&p, "c"), 1);
    see(&p, "cycle 539  SM 0   stopped: watch: tile[8] of block 0 changed from 0 (0 as .f32) to 3197272886 "
            "(-0.286157), written by block 0 warp 0 lane 7, pc 16, cycle 539");
    see(&p, "* 0     0      0       16    55  11111111  issued: st.shared.f32 [%r7+4], %f1;");
    assert_int_equal(type(&p, "b 80 if block=0 warp=1"), 1);
    assert_int_equal(type(&p, "c"), 1);
    see(&p, "cycle 850  SM 0   stopped: breakpoint 1, line 80, block 0 warp 1");
    see(&p, "  scoreboard: %f7: short_scoreboard (shared, shuffle or SFU), ready at cycle 858;");
    assert_int_equal(type(&p, "p %r7"), 1);
    see(&p, "%r7 of block 0 warp 1, by lane:\n   0:         32         36         40");
    assert_int_equal(type(&p, "s"), 1);
    see(&p, "cycle 882  SM 0");
    assert_int_equal(type(&p, "p %f7"), 1);
    see(&p, "%f7 of block 0 warp 1, by lane:\n   0:  -0.286157  -0.839769");
    assert_int_equal(type(&p, "q"), 0);
    see(&p, "check out        PASS");
    assert_int_equal(pty_finish(&p), 0);
}

/* Enter repeats the last command; the arrows walk the history; q runs to
 * the end. */
static void enter_repeats(void **state)
{
    (void)state;
    char *const argv[] = { (char *)bin(), "--step", "--set", "core.schedule=source", "-D", "N=8", "-D", "BLOCK=8", "configs/tiny.ini",
                           "kernels/evenodd.s", NULL };
    Pty p;
    pty_start(&p, argv);
    assert_int_equal(pty_read(&p), 1);
    assert_int_equal(type(&p, "n"), 1);
    see(&p, "cycle 1  SM 0");
    assert_int_equal(type(&p, ""), 1);
    see(&p, "cycle 2  SM 0");
    assert_int_equal(type(&p, "f 0 0"), 1);
    see(&p, "focus: block 0 warp 0, next pc 2 (line 43)");
    assert_int_equal(type(&p, "p %p1"), 1);
    see(&p, "%p1, lanes 0-7: 00000000");
    /* history: up arrow once is "p %p1" again, twice "f 0 0"; a typo
     * mended with backspace */
    assert_int_equal(type(&p, "\033[A"), 1);
    see(&p, "%p1, lanes 0-7: 00000000");
    assert_int_equal(type(&p, "\033[A\033[A"), 1);
    see(&p, "focus: block 0 warp 0, next pc 2 (line 43)");
    assert_int_equal(type(&p, "hx\177"), 1);
    see(&p, "n next cycle | s next instruction");
    assert_int_equal(type(&p, "q"), 0);
    assert_int_equal(pty_finish(&p), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(walk_evenodd),
        cmocka_unit_test(walk_blur_race),
        cmocka_unit_test(enter_repeats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
