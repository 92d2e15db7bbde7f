/* disasm.h - the disassembler: Program -> text that assembles again.
 *
 * disasm_instr prints one instruction in canonical PTX spelling (modifiers
 * in the manual's order, floats as exact 0f/0d bit patterns).  disasm_entry
 * prints the teaching listing of --disasm: pcs, source lines, basic blocks
 * and every branch's reconvergence point, all inside comments so the
 * listing itself re-assembles.
 */
#ifndef GPUSIM_DISASM_H
#define GPUSIM_DISASM_H

#include <stddef.h>
#include <stdio.h>

#include "isa.h"

void disasm_instr(const Program *p, const Entry *e, const Instr *in, char *buf, size_t n);
void disasm_entry(const Program *p, int entry, FILE *out);
void disasm_program(const Program *p, FILE *out);

#endif
