/* asm.h - the assembler: kernel-file text -> Program.
 *
 * Parses PTX (the subset in isa.def, plus what `nvcc -ptx` prints for simple
 * kernels) and the host directives (.define, .buffer, .launch, .check),
 * resolves registers, labels and variables to indices, checks operand
 * kinds and widths against the opcode table, and runs the control-flow
 * analysis that gives every branch its reconvergence pc.  Reports every
 * error it finds (file:line:col) and returns NULL if there was any.
 */
#ifndef GPUSIM_ASM_H
#define GPUSIM_ASM_H

#include <stddef.h>

#include "diag.h"
#include "isa.h"

typedef struct AsmDefine {
    const char *name;
    const char *value;    /* an integer expression, as given to -D */
} AsmDefine;

typedef struct AsmOptions {
    const AsmDefine *defines;  /* -D overrides of .define values */
    int ndefines;
} AsmOptions;

Program *asm_assemble(const char *filename, const char *text, size_t len,
                      const AsmOptions *opt, DiagList *dl);
Program *asm_assemble_file(const char *path, const AsmOptions *opt, DiagList *dl);

#endif
