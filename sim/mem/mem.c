/* mem.c - see mem.h. */
#include "sim/mem/mem.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REGION_ALIGN = 256, REGION_GAP = 256 };

int mem_init(Memory *m, const Program *p)
{
    memset(m, 0, sizeof *m);
    m->regions = calloc((size_t)(p->nbuffers ? p->nbuffers : 1), sizeof *m->regions);
    if (!m->regions) return -1;
    uint64_t at = MEM_GLOBAL_BASE;
    for (int i = 0; i < p->nbuffers; i++) {
        const BufferSpec *b = &p->buffers[i];
        uint64_t size = b->count * (uint64_t)(isa_type_bits((DataType)b->type) / 8);
        Region *r = &m->regions[m->nregions];
        r->base = at;
        r->size = size;
        r->buffer = i;
        r->data = calloc(1, (size_t)size);
        if (!r->data) { mem_free(m); return -1; }
        m->nregions++;
        at = (at + size + REGION_GAP + REGION_ALIGN - 1) / REGION_ALIGN * REGION_ALIGN;
    }
    m->top = at;
    if (p->const_bytes) {
        m->cmem = malloc(p->const_bytes);
        if (!m->cmem) { mem_free(m); return -1; }
        memcpy(m->cmem, p->const_data, p->const_bytes);
        m->cbytes = p->const_bytes;
    }
    return 0;
}

void mem_free(Memory *m)
{
    for (int i = 0; i < m->nregions; i++) free(m->regions[i].data);
    free(m->regions);
    free(m->cmem);
    memset(m, 0, sizeof *m);
}

Region *mem_find(const Memory *m, uint64_t addr, uint64_t size)
{
    int lo = 0, hi = m->nregions - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        Region *r = &m->regions[mid];
        if (addr < r->base) hi = mid - 1;
        else if (addr >= r->base + r->size) lo = mid + 1;
        else return (addr + size <= r->base + r->size) ? r : NULL;
    }
    return NULL;
}

Region *mem_region_of_buffer(const Memory *m, int buffer)
{
    for (int i = 0; i < m->nregions; i++)
        if (m->regions[i].buffer == buffer) return &m->regions[i];
    return NULL;
}

static const char *elem_word(DataType t)
{
    switch (t) {
    case T_F32: return "floats";
    case T_F64: return "doubles";
    default: break;
    }
    static const char *const words[] = { "", "bytes", "16-bit values", "32-bit values", "64-bit values" };
    int b = isa_type_bits(t);
    return words[b == 8 ? 1 : b == 16 ? 2 : b == 32 ? 3 : 4];
}

void mem_describe(const Memory *m, const Program *p, uint64_t addr, int size, char *buf, size_t n)
{
    /* nearest region: the one containing addr, else the closest edge */
    const Region *best = NULL;
    uint64_t best_d = UINT64_MAX;
    for (int i = 0; i < m->nregions; i++) {
        const Region *r = &m->regions[i];
        uint64_t d = addr < r->base ? r->base - addr : addr >= r->base + r->size ? addr - (r->base + r->size) + 1 : 0;
        if (d < best_d) { best_d = d; best = r; }
    }
    if (!best) { snprintf(buf, n, "address 0x%" PRIx64 " is not in any buffer (the kernel file declares none)", addr); return; }
    const BufferSpec *b = &p->buffers[best->buffer];
    int esize = isa_type_bits((DataType)b->type) / 8;
    int64_t off = (int64_t)(addr - best->base);
    int64_t idx = off >= 0 ? off / esize : -((-off + esize - 1) / esize);
    if (addr >= best->base && addr + (uint64_t)size <= best->base + best->size)
        snprintf(buf, n, "%s[%" PRId64 "]", b->name, idx);
    else if (addr >= best->base + best->size)
        snprintf(buf, n, "%s[%" PRId64 "] is %" PRIu64 " bytes past the end of %s (%" PRIu64 " %s)", b->name, idx,
                 addr - (best->base + best->size), b->name, b->count, elem_word((DataType)b->type));
    else if (addr < best->base)
        snprintf(buf, n, "%s[%" PRId64 "] is %" PRIu64 " bytes before the start of %s (%" PRIu64 " %s)", b->name, idx,
                 best->base - addr, b->name, b->count, elem_word((DataType)b->type));
    else
        snprintf(buf, n, "%s[%" PRId64 "]: the %d-byte access runs past the end of %s (%" PRIu64 " %s)", b->name, idx,
                 size, b->name, b->count, elem_word((DataType)b->type));
}
