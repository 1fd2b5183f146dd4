/* Vault Unit as schema version 1 sees it. */
#include "evo.h"

#include "unit_vault.h"

#include <threadlink/fp.h>

static void to_view(const unit_vault *u, evo_view *out)
{
    memset(out, 0, sizeof *out);
    out->health = u->Health;
    strcpy(out->name, u->Name);
    out->speed_raw = u->Speed.raw;
    out->removed = u->Removed;
    out->mode = u->Mode;
    unit_vault_Tags_list_const tags = unit_vault_get_Tags(u);
    out->tag_count = unit_vault_Tags_list_const_count(tags);
    for (uint32_t i = 0; i < out->tag_count; i++) out->tags[i] = *unit_vault_Tags_list_const_at(tags, i);
}

size_t evo_v1_write(const evo_view *f, unsigned char *out, size_t cap)
{
    unit_vault u;
    size_t n = 0;
    unit_vault_init(&u);
    unit_vault_set_Health(&u, f->health);
    if (!unit_vault_set_Name(&u, f->name)) return 0;
    unit_vault_set_Speed(&u, tl_fp_from_raw(f->speed_raw));
    unit_vault_set_Removed(&u, f->removed);
    unit_vault_set_Mode(&u, (int32_t)f->mode);
    unit_vault_Tags_list tags = unit_vault_edit_Tags(&u);
    unit_vault_Tags_list_clear(tags);
    for (uint32_t i = 0; i < f->tag_count; i++)
        if (!unit_vault_Tags_list_add(tags, f->tags[i])) return 0;
    if (tl_vault_write(&unit_vault_desc, &u, out, cap, &n) != TL_VAULT_OK) return 0;
    return n;
}

int evo_v1_read(const unsigned char *in, size_t n, evo_view *out)
{
    unit_vault u;
    unit_vault_init(&u);
    int e = (int)tl_vault_read(&unit_vault_desc, &u, in, n);
    to_view(&u, out);
    return e;
}
