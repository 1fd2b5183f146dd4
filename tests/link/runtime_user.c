/* A program's main file: calls one function of every runtime module with state, so a link fails
 * unless each module's implementation is in exactly one of the program's files. It defines no
 * implementation switch itself (the split tests and the library targets provide them). */
#include <threadlink/threadlink.h>

#include <stdio.h>
#include <string.h>

int main(void) {
    int bad = 0;
    tl_events reg;
    tl_time time;
    tl_content *content;
    void *block;

    if (strcmp(tl_log_level_name(TL_LOG_LEVEL_ERROR), "error") != 0) bad |= 1;   /* log */
    if (tl_events_init(&reg, NULL) != TL_EVENTS_OK) bad |= 2;                                      /* events */
    tl_events_discard(&reg);
    tl_time_init(&time, NULL);                                                    /* time */
    if (tl_lifecycle_deployed(NULL)) bad |= 4;                                     /* lifecycle */
    if (tl_vault_serialised_size(NULL, NULL) != 0) bad |= 8;                      /* vault */
    if (tl_vault_listener_count(NULL) != 0) bad |= 8;
    if (strcmp(tl_cf_result_message(TL_CF_NOT_FOUND), "not found") != 0) bad |= 16;     /* content_format */
    if (tl_text_fold_compare("Hero", 4, "hERO", 4) != 0) bad |= 4096;               /* text */
    content = tl_content_create(NULL);                                            /* content */
    if (!content || !tl_scope_valid(tl_content_root(content))) bad |= 32;
    if (content) tl_content_shutdown(content);
    block = tl_mem_alloc_zeroed(64, 0);                                           /* mem */
#ifdef TL_MEM_DEBUG
    if (tl_mem_live_blocks() != 1) bad |= 64;
#endif
    tl_mem_free(block);
    if (tl_mem_live_blocks() != 0) bad |= 128;
    if (!tl_save_id_valid("slot-1") || tl_save_id_valid("..")) bad |= 256;       /* save */
    if (tl_levels_is_resident(NULL, 1)) bad |= 512;                                /* levels */
    if (tl_platform_distribution_from_name("steam") != TL_PLATFORM_DISTRIBUTION_STEAM) bad |= 1024; /* platform */
    if (strcmp(tl_patch_result_message(TL_PATCH_OK), "ok") != 0) bad |= 2048;       /* patch */
    if (bad) fprintf(stderr, "runtime_user: checks failed: 0x%x\n", (unsigned)bad);
    else puts("runtime_user: ok");
    return bad ? 1 : 0;
}
