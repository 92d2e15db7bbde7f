/* fuzz_asm.c - libFuzzer harness for the assembler (`make fuzz`, then
 * build/fuzz/fuzz_asm -max_total_time=600 build/fuzz/corpus_asm).
 *
 * Any bytes must assemble or fail with diagnostics: no crash, no leak, no
 * hang.  When a program assembles, its disassembly must assemble again
 * (round trip), and every branch's reconvergence pc must lie in the entry. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "isa/disasm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    DiagList dl = { 0 };
    Program *p = asm_assemble("fuzz.s", (const char *)data, size, NULL, &dl);
    if (p) {
        for (int e = 0; e < p->nentries; e++)
            for (int pc = 0; pc < p->entries[e].ncode; pc++) {
                const Instr *in = &p->entries[e].code[pc];
                if (in->op == OP_BRA && in->guard != REG_NONE && in->reconv > (uint32_t)p->entries[e].ncode) abort();
            }
        char *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        disasm_program(p, m);
        fclose(m);
        DiagList dl2 = { 0 };
        Program *q = asm_assemble("fuzz-roundtrip.s", text, len, NULL, &dl2);
        /* the listing omits host directives, so only code must survive */
        if (!q) { diag_print(&dl2, stderr); fputs(text, stderr); abort(); }
        for (int e = 0; e < p->nentries; e++)
            if (q->entries[e].ncode != p->entries[e].ncode) abort();
        program_free(q);
        diag_free(&dl2);
        free(text);
        program_free(p);
    }
    diag_free(&dl);
    return 0;
}
