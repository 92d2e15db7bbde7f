/* isa_mods.h - the modifier (dot-suffix) table shared by the assembler and
 * the disassembler, so both spell and order modifiers the same way. */
#ifndef GPUSIM_ISA_MODS_H
#define GPUSIM_ISA_MODS_H

#include "isa.h"

/* Which Instr field a modifier sets. */
typedef enum ModField {
    MF_SPACE, MF_CACHE, MF_VEC, MF_RND, MF_MUL, MF_CMP, MF_BOOL, MF_SUB,
    MF_LEVEL, MF_SEM, MF_FLAG
} ModField;

typedef struct ModInfo {
    const char *name;    /* without the dot */
    uint32_t cls;        /* MC_* class the opcode must allow */
    uint8_t field;       /* ModField */
    uint16_t value;      /* enum value, or IF_* bit for MF_FLAG */
} ModInfo;

extern const ModInfo isa_mods[];
extern const int isa_nmods;

/* Print order: a field, and for MF_FLAG which bit. */
typedef struct ModSlot { uint8_t field; uint16_t flag; } ModSlot;
extern const ModSlot isa_mod_order[];
extern const int isa_nmod_order;

/* Current value of a field in an instruction (flags: nonzero if set). */
unsigned isa_mod_get(const Instr *in, ModSlot s);
/* The spelling of a field value under an opcode's classes, or NULL. */
const char *isa_mod_name(uint32_t op_mods, ModSlot s, unsigned value);

#endif
