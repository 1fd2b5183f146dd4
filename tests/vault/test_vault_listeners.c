/* Vault change events (runtime/threadlink/vault.h, "Change events"): any number of listeners per
 * instance, each to one field or to every field, through a set that vaults point to; removal
 * and subscription during dispatch, nested dispatch, no listener at all. Over the golden
 * every_vault of tests/vault/project. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "icons.h"
#include "vaults/things_data.h"

#define MAX_CALLS 64

/* The last line the set logged. */
typedef struct captured {
    uint32_t item;
    char line[TL_LOG_LINE_MAX];
} captured;
static void capture(void *user, const tl_log_record *record)
{
    captured *c = (captured *)user;
    c->item = record->item;
    snprintf(c->line, sizeof c->line, "%s", record->line);
}

/* Who was called, in order: the listener's tag, the vault, the field. */
typedef struct journal {
    int count;
    int tag[MAX_CALLS];
    void *vault[MAX_CALLS];
    uint32_t field[MAX_CALLS];
} journal;

typedef struct probe {
    journal *j;
    int tag;
    /* What the listener does when called: */
    tl_vault_listeners *set;
    struct probe *remove;   /* unsubscribe this probe (from Health of its vault) */
    int grow;               /* subscribe this many new probes to Health */
    every_vault *nested;    /* set this vault's Damage (a nested dispatch) */
} probe;

static void on_change(void *user, void *vault, uint32_t field_id);

static probe spawned[32];

static void record(probe *p, void *vault, uint32_t field_id)
{
    journal *j = p->j;
    assert_true(j->count < MAX_CALLS);
    j->tag[j->count] = p->tag;
    j->vault[j->count] = vault;
    j->field[j->count] = field_id;
    j->count++;
}

static void on_change(void *user, void *vault, uint32_t field_id)
{
    probe *p = (probe *)user;
    record(p, vault, field_id);
    if (p->remove) {
        assert_true(tl_vault_unsubscribe(p->set, vault, EVERY_VAULT_ID_Health, on_change, p->remove));
        p->remove = NULL;
    }
    for (int i = 0; i < p->grow; i++) {
        spawned[i] = (probe){p->j, 100 + i, NULL, NULL, 0, NULL};
        assert_int_equal(tl_vault_subscribe(p->set, vault, EVERY_VAULT_ID_Health, on_change, &spawned[i]), TL_VAULT_OK);
    }
    p->grow = 0;
    if (p->nested) {
        tl_fp d = every_vault_get_Damage(p->nested);
        d.raw += 1;
        every_vault_set_Damage(p->nested, d);
        p->nested = NULL;
    }
}

static void test_vault_listeners_per_field_and_every_field(void **state)
{
    (void)state;
    tl_vault_listeners set = {0};
    journal j = {0};
    every_vault a, b;
    probe health = {&j, 1, &set, NULL, 0, NULL}, all = {&j, 2, &set, NULL, 0, NULL};
    probe other = {&j, 3, &set, NULL, 0, NULL}, any = {&j, 4, &set, NULL, 0, NULL};
    every_vault_init(&a);
    every_vault_init(&b);
    captured last = {0, ""};
    tl_logger logger = {capture, NULL, 0};
    logger.user = &last;
    set.logger = &logger;
    every_vault_listen(&a, &set);
    every_vault_listen(&b, &set);
    assert_int_equal(tl_vault_subscribe(&set, &a, EVERY_VAULT_ID_Health, on_change, &health), TL_VAULT_OK);
    assert_int_equal(tl_vault_subscribe_all(&set, &a, on_change, &all), TL_VAULT_OK);
    assert_int_equal(tl_vault_subscribe(&set, &b, EVERY_VAULT_ID_Health, on_change, &other), TL_VAULT_OK);
    assert_int_equal(tl_vault_subscribe(&set, NULL, EVERY_VAULT_ID_Speed, on_change, &any), TL_VAULT_OK);
    /* The same subscription twice is refused; the same listener to every field is another one. */
    assert_int_equal(tl_vault_subscribe(&set, &a, EVERY_VAULT_ID_Health, on_change, &health),
                     TL_VAULT_ERROR_SUBSCRIBED);
    assert_string_equal(tl_vault_result_message(TL_VAULT_ERROR_SUBSCRIBED),
                        "the same subscription is already made");
    assert_int_equal(last.item, TL_VAULT_LOG_SUBSCRIBED);
    assert_non_null(strstr(last.line, "Vault: error: tl_vault_subscribe: this listener and user "
                                      "already follow field"));
    assert_int_equal(tl_vault_subscribe_all(&set, &a, on_change, &all), TL_VAULT_ERROR_SUBSCRIBED);
    assert_non_null(strstr(last.line, "already follow every field of vault"));
    assert_int_equal(tl_vault_subscribe(&set, &a, 1, NULL, &all), TL_VAULT_ERROR_ARGUMENT);
    assert_non_null(strstr(last.line, "tl_vault_subscribe: invalid argument"));
    assert_int_equal(tl_vault_listener_count(&set), 4);

    every_vault_set_Health(&a, 5); /* Health of a: its field listener, then its every-field one */
    assert_int_equal(j.count, 2);
    assert_int_equal(j.tag[0], 1);
    assert_int_equal(j.tag[1], 2);
    assert_ptr_equal(j.vault[0], &a);
    assert_int_equal(j.field[1], EVERY_VAULT_ID_Health);
    every_vault_set_Health(&a, 5); /* no change, no event */
    assert_int_equal(j.count, 2);
    every_vault_set_Big(&a, 7); /* another field: the every-field listener only */
    assert_int_equal(j.count, 3);
    assert_int_equal(j.tag[2], 2);
    assert_int_equal(j.field[2], EVERY_VAULT_ID_Big);
    every_vault_set_Health(&b, 9); /* the other vault's listener alone */
    assert_int_equal(j.count, 4);
    assert_int_equal(j.tag[3], 3);
    assert_ptr_equal(j.vault[3], &b);
    every_vault_set_Speed(&b, 2.0f); /* a NULL vault: any vault of the set */
    every_vault_set_Speed(&a, 2.0f);
    assert_int_equal(j.count, 7);
    assert_int_equal(j.tag[4], 4);
    assert_ptr_equal(j.vault[4], &b);
    assert_int_equal(j.tag[5], 2); /* a's every-field listener came first */
    assert_int_equal(j.tag[6], 4);
    int32_t eleven = 11; /* generic access notifies the same way */
    assert_true(tl_vault_try_set(&every_vault_desc, &a, EVERY_VAULT_ID_Health, TL_VAULT_INTEGER, &eleven));
    assert_true(every_vault_try_set(&a, EVERY_VAULT_ID_Health, TL_VAULT_INTEGER, &(int32_t){12}));
    assert_int_equal(j.count, 11);

    assert_true(tl_vault_unsubscribe_all(&set, &a, on_change, &all));
    assert_false(tl_vault_unsubscribe_all(&set, &a, on_change, &all));
    assert_false(tl_vault_unsubscribe(&set, &a, EVERY_VAULT_ID_Big, on_change, &health)); /* never made */
    every_vault_set_Health(&a, 1);
    assert_int_equal(j.count, 12);
    assert_int_equal(j.tag[11], 1);
    assert_int_equal(tl_vault_listener_count(&set), 3);
    tl_vault_listeners_discard(&set);
    assert_int_equal(tl_vault_listener_count(&set), 0);
    every_vault_set_Health(&a, 2); /* an empty set: nothing called */
    every_vault_listen(&a, NULL);
    every_vault_set_Health(&a, 3); /* no set at all */
    assert_int_equal(j.count, 12);
}

/* A listener removes a later one and itself: the later one is not called in this very
 * dispatch, none is skipped, and the next dispatch calls the rest in order. */
static void test_vault_unsubscribe_during_dispatch(void **state)
{
    (void)state;
    tl_vault_listeners set = {0};
    journal j = {0};
    every_vault v;
    probe p[4];
    every_vault_init(&v);
    every_vault_listen(&v, &set);
    for (int i = 0; i < 4; i++) {
        p[i] = (probe){&j, i, &set, NULL, 0, NULL};
        assert_int_equal(tl_vault_subscribe(&set, &v, EVERY_VAULT_ID_Health, on_change, &p[i]), TL_VAULT_OK);
    }
    p[1].remove = &p[3];
    every_vault_set_Health(&v, 1);
    assert_int_equal(j.count, 3);
    assert_int_equal(j.tag[0], 0);
    assert_int_equal(j.tag[1], 1);
    assert_int_equal(j.tag[2], 2);
    p[2].remove = &p[2]; /* itself */
    every_vault_set_Health(&v, 2);
    assert_int_equal(j.count, 6);
    every_vault_set_Health(&v, 3);
    assert_int_equal(j.count, 8);
    assert_int_equal(j.tag[6], 0);
    assert_int_equal(j.tag[7], 1);
    assert_int_equal(tl_vault_listener_count(&set), 2);
    assert_int_equal(set.count, 2); /* compacted when the dispatch ended */
    tl_vault_listeners_discard(&set);
}

/* Subscriptions made during dispatch, many enough to outgrow the list, are called from the next
 * change on; a removal during that dispatch still holds in the list it runs over (ASan: no read of
 * freed memory). */
static void test_vault_subscribe_during_dispatch_grows_safely(void **state)
{
    (void)state;
    tl_vault_listeners set = {0};
    journal j = {0};
    every_vault v;
    probe first = {&j, 1, &set, NULL, 20, NULL}, last = {&j, 2, &set, NULL, 0, NULL};
    every_vault_init(&v);
    every_vault_listen(&v, &set);
    assert_int_equal(tl_vault_subscribe(&set, &v, EVERY_VAULT_ID_Health, on_change, &first), TL_VAULT_OK);
    assert_int_equal(tl_vault_subscribe(&set, &v, EVERY_VAULT_ID_Health, on_change, &last), TL_VAULT_OK);
    first.remove = &last;
    every_vault_set_Health(&v, 1);
    assert_int_equal(j.count, 1);
    assert_int_equal(tl_vault_listener_count(&set), 21);
    every_vault_set_Health(&v, 2);
    assert_int_equal(j.count, 22);
    assert_int_equal(j.tag[1], 1);
    for (int i = 0; i < 20; i++) assert_int_equal(j.tag[2 + i], 100 + i);
    tl_vault_listeners_discard(&set);
}

/* A listener that changes another field dispatches again, nested; a removal in the nested
 * dispatch holds in the outer one. */
static void test_vault_nested_dispatch(void **state)
{
    (void)state;
    tl_vault_listeners set = {0};
    journal j = {0};
    every_vault v;
    probe outer = {&j, 1, &set, NULL, 0, &v}, damage = {&j, 2, &set, NULL, 0, NULL}, later = {&j, 3, &set, NULL, 0, NULL};
    every_vault_init(&v);
    every_vault_listen(&v, &set);
    damage.remove = &later;
    assert_int_equal(tl_vault_subscribe(&set, &v, EVERY_VAULT_ID_Health, on_change, &outer), TL_VAULT_OK);
    assert_int_equal(tl_vault_subscribe(&set, &v, EVERY_VAULT_ID_Damage, on_change, &damage), TL_VAULT_OK);
    assert_int_equal(tl_vault_subscribe(&set, &v, EVERY_VAULT_ID_Health, on_change, &later), TL_VAULT_OK);
    every_vault_set_Health(&v, 1);
    assert_int_equal(j.count, 2);
    assert_int_equal(j.tag[0], 1);
    assert_int_equal(j.tag[1], 2);
    assert_int_equal(j.field[1], EVERY_VAULT_ID_Damage);
    assert_int_equal(set.count, 2);
    tl_vault_listeners_discard(&set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vault_listeners_per_field_and_every_field),
        cmocka_unit_test(test_vault_unsubscribe_during_dispatch),
        cmocka_unit_test(test_vault_subscribe_during_dispatch_grows_safely),
        cmocka_unit_test(test_vault_nested_dispatch),
    };
    return cmocka_run_group_tests_name("vault-listeners", tests, NULL, NULL);
}
