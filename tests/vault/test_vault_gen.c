/* The generator's vault stage: exact FP literals, and every input error with its exact diagnostic
 * (file:line:col, JSON path, closest names) and the generated directory untouched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <threadlink/fp.h>
#include <threadlink/mem.h>

#include "gen_fixture.h"
#include "vault/vault_model.h"

static void expect_fp(const char *text, int64_t raw)
{
    int64_t got = 12345;
    const char *why = vault_fp_parse(text, &got);
    if (why) fail_msg("%s: %s", text, why);
    if (got != raw) fail_msg("%s: raw %lld, expected %lld", text, (long long)got, (long long)raw);
}

static void test_vault_fp_literals_exact(void **state)
{
    (void)state;
    expect_fp("0", 0);
    expect_fp("-0", 0);
    expect_fp("+1", INT64_C(1) << 32);
    expect_fp("1.5", INT64_C(3) << 31);
    expect_fp("-2147483648", INT64_MIN);
    expect_fp("2147483647.99999999976716935634613037109375", INT64_MAX); /* exactly MAX */
    /* 2^-33 is half a raw unit: ties go away from zero. */
    expect_fp("0.000000000116415321826934814453125", 1);
    expect_fp("-0.000000000116415321826934814453125", -1);
    expect_fp("0.000000000116415321826934814453124999999999999", 0);
    expect_fp("0.000000000116415321826934814453125000000000001", 1);
    expect_fp("-2147483648.0000000001", INT64_MIN); /* rounds back into range */
    expect_fp("0.1000000000000000000000000000000000000000000000000000000000000000000000000000001",
              tl_fp_from_fraction(1, 10).raw);
    /* Against fp.h's own rounding (nearest, ties away from zero) over many decimals. */
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int digits = (int)(x % 10);             /* fraction digits 0..9 */
        int64_t den = 1;
        for (int k = 0; k < digits; k++) den *= 10;
        int64_t num = (int64_t)(x >> 20) % (INT64_C(2147483647) * den); /* |value| < 2^31 */
        if (x & 1) num = -num;
        char text[64];
        int64_t whole = (num < 0 ? -num : num) / den, frac = (num < 0 ? -num : num) % den;
        if (digits) snprintf(text, sizeof text, "%s%lld.%0*lld", num < 0 ? "-" : "", (long long)whole, digits, (long long)frac);
        else snprintf(text, sizeof text, "%s%lld", num < 0 ? "-" : "", (long long)whole);
        expect_fp(text, tl_fp_from_fraction(num, den).raw);
    }
    static const char *const bad[] = {"", "1.", ".5", "1e3", "+-1", "1.2.3", " 1", "1 ", "0x10", "2147483648",
                                       "-2147483649", "2147483647.999999999883584678173065185546875", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int64_t raw;
        if (!vault_fp_parse(bad[i], &raw)) fail_msg("accepted \"%s\"", bad[i]);
    }
}

/* A project that generated cleanly once; tests then break one thing. */
static const char every_schema[] =
    "{ \"name\": \"Thing\",\n"
    "  \"fields\": [\n"
    "    { \"field\": \"Health\", \"type\": \"Integer\", \"default\": 10 },\n"
    "    { \"field\": \"Speed\", \"type\": \"FP\", \"default\": \"1.5\" },\n"
    "    { \"field\": \"Name\", \"type\": \"String\", \"capacity\": 8 },\n"
    "    { \"field\": \"Icon\", \"type\": \"AssetRef\", \"catalog\": \"Game.Icons\" },\n"
    "    { \"field\": \"Bag\", \"type\": \"InlineHashSet\", \"element\": \"Integer\", \"capacity\": 2 },\n"
    "    { \"field\": \"Temp\", \"type\": \"Float\", \"backing\": \"transient\" }\n"
    "  ] }\n";

static char *good_project(fixture *f)
{
    fx_write("threadlink.json",
             "{ \"domains\": [\n"
             "    { \"name\": \"Vault.Fields\", \"output\": \"vault_fields.h\", \"reserve_zero\": true },\n"
             "    { \"name\": \"Game.Icons\", \"output\": \"icons.h\" } ],\n"
             "  \"vaults\": { \"schemas\": \"vaults\", \"data\": \"vaultdata\" } }\n");
    fx_write("injectors/Vault.Fields.User.txt", "Health\nSpeed\nName\nIcon\nBag\nTemp\nMaxHealth\nOld\n");
    fx_write("injectors/Game.Icons.User.txt", "Sword\nShield\n");
    fx_write("vaults/Thing.vault.json", every_schema);
    fx_write("vaultdata/things.vaultdata.json",
             "{ \"vault\": \"Thing\", \"instances\": [\n"
             "  { \"name\": \"A\", \"values\": { \"Health\": 1, \"Icon\": \"Sword\", \"Bag\": [1, 2] } } ] }\n");
    assert_int_equal(fx_generate(f), 0);
    assert_true(fx_exists("generated/vaults/thing_vault.h"));
    assert_true(fx_exists("generated/vaults/things_data.h"));
    fx_write("injectors/Vault.Fields.User.txt", "Health\nSpeed\nName\nIcon\nBag\nTemp\nMaxHealth\n"); /* Old: a tombstone */
    assert_int_equal(fx_generate(f), 0);
    f->diags.len = 0;
    f->diags.data[0] = 0;
    return fx_snapshot("generated");
}

static void test_vault_errors_undeclared_and_removed_fields(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("vaults/Thing.vault.json",
             "{ \"name\": \"Thing\",\n"
             "  \"fields\": [\n"
             "    { \"field\": \"Helth\", \"type\": \"Integer\" },\n"
             "    { \"field\": \"Old\", \"type\": \"Integer\" },\n"
             "    { \"field\": \"User.Speed\", \"type\": \"FP\" },\n"
             "    { \"field\": \"speed\", \"type\": \"FP\" }\n"
             "  ] }\n");
    fx_write("vaultdata/things.vaultdata.json", "{ \"vault\": \"Thing\", \"instances\": [] }\n");
    fx_expect_failure(f, snap,
        "vaults/Thing.vault.json:3:7: error: fields[0].field: \"Helth\" is not declared in Vault.Fields (closest: Health, Temp, MaxHealth); declare it in injectors/Vault.Fields.User.txt\n"
        "vaults/Thing.vault.json:4:7: error: fields[1].field: \"Old\" was removed from Vault.Fields (it is a tombstone); declare it again or drop the field\n"
        "vaults/Thing.vault.json:6:7: error: fields[3].field: \"speed\" is the same Vault.Fields entry (Speed) as fields[2]\n");
}

static void test_vault_errors_schema(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("vaults/Thing.vault.json",
             "{ \"name\": \"Thing\", \"colour\": 1,\n"
             "  \"fields\": [\n"
             "    { \"field\": \"Health\", \"type\": \"Int\" },\n"
             "    { \"field\": \"Speed\", \"type\": \"InlineList\", \"element\": \"String\", \"capacity\": 4 },\n"
             "    { \"field\": \"Name\", \"type\": \"InlineDictionary\", \"element\": \"Integer\" },\n"
             "    { \"field\": \"Icon\", \"type\": \"Integer\", \"capacity\": 3, \"backing\": \"saved\" },\n"
             "    { \"field\": \"Bag\", \"type\": \"InlineArray\", \"element\": \"Integer\", \"capacity\": 0 },\n"
             "    { \"field\": \"Temp\", \"type\": \"AssetRef\" },\n"
             "    { \"field\": \"health\", \"type\": \"Integer\", \"default\": 2147483648 },\n"
             "    { \"field\": \"MaxHealth\", \"type\": \"Vector3D\", \"default\": [1, 2] },\n"
             "    { \"field\": \"Rate\", \"type\": \"Flaot\" },\n"
             "    { \"field\": \"Ids\", \"type\": \"InlineLsit\", \"element\": \"Integr\", \"capacity\": 2 },\n"
             "    { \"field\": \"Set\", \"type\": \"InlineHashSet\", \"element\": \"Integr\", \"capacity\": 2 }\n"
             "  ] }\n");
    fx_write("vaultdata/things.vaultdata.json", "{ \"vault\": \"Thing\", \"instances\": [] }\n");
    fx_expect_failure(f, snap,
        "vaults/Thing.vault.json:1:20: error: colour: unknown key\n"
        "vaults/Thing.vault.json:3:26: error: fields[0].type: unknown type \"Int\" (Integer, Long, Float, Double, Boolean, Integer2D, Float2D, Vector2D, Vector3D, Rotation, FP, FPVector2, FPVector3, FPQuaternion, String, AssetRef, LocalizedText, InlineArray, InlineList, InlineQueue, InlineStack, InlineHashSet, InlineDictionary)\n"
        "vaults/Thing.vault.json:4:47: error: fields[1].element: String cannot be a collection element (elements have a fixed size)\n"
        "vaults/Thing.vault.json:5:5: error: fields[2]: missing required key \"value\" (the value type of the InlineDictionary)\n"
        "vaults/Thing.vault.json:5:5: error: fields[2]: missing required key \"capacity\"\n"
        "vaults/Thing.vault.json:6:43: error: fields[3].capacity: only a String or an inline collection has a capacity\n"
        "vaults/Thing.vault.json:6:58: error: fields[3].backing: expected \"serialised\" or \"transient\", got \"saved\"\n"
        "vaults/Thing.vault.json:7:68: error: fields[4].capacity: expected an integer from 1 to 2147483647, got 0\n"
        "vaults/Thing.vault.json:8:5: error: fields[5]: missing required key \"catalog\" (the domain of the assets an AssetRef names)\n"
        "vaults/Thing.vault.json:9:45: error: fields[6].default: 2147483648 is out of range for Integer (-2147483648 to 2147483647)\n"
        "vaults/Thing.vault.json:9:7: error: fields[6].field: \"health\" is already fields[0]\n"
        "vaults/Thing.vault.json:10:49: error: fields[7].default: expected an array of 3 numbers (Vector3D), got an array of 2\n"
        "vaults/Thing.vault.json:11:24: error: fields[8].type: unknown type \"Flaot\" (did you mean \"Float\"?)\n"
        "vaults/Thing.vault.json:12:23: error: fields[9].type: unknown type \"InlineLsit\" (did you mean \"InlineList\"?)\n"
        "vaults/Thing.vault.json:13:48: error: fields[10].element: unknown type \"Integr\" (did you mean \"Integer\"?)\n");
}

/* A data file still naming a field by the name Vault.Fields renamed: the error names the rename and
 * the name to write, not only the closest fields. */
static void test_vault_data_naming_a_renamed_field(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("injectors/Vault.Fields.User.txt", "Health\nPace <- Speed\nName\nIcon\nBag\nTemp\nMaxHealth\n");
    char *schema = fx_read("vaults/Thing.vault.json");
    char *at = strstr(schema, "\"field\": \"Speed\"");
    assert_non_null(at);
    memcpy(at + 10, "Pace\", ", 7); /* "Speed", -> "Pace",  (the same length) */
    fx_write("vaults/Thing.vault.json", schema);
    free(schema);
    fx_write("vaultdata/things.vaultdata.json",
             "{ \"vault\": \"Thing\", \"instances\": [\n"
             "  { \"name\": \"A\", \"values\": { \"Health\": 1, \"Speed\": \"2.5\" } } ] }\n");
    fx_expect_failure(f, snap,
        "vaultdata/things.vaultdata.json:2:43: error: instances[0].values.Speed: vault Thing has no field \"Speed\": Vault.Fields renamed it "
        "Pace ('Pace <- Speed' at injectors/Vault.Fields.User.txt:2:9): write \"Pace\"\n");
}

/* The schema misspells a field the data file names rightly ("Hpx" for Hp): the data's error says
 * that Vault.Fields declares the name and which schema field it declares not, so that the fix
 * goes to the schema, not to the data. */
static void test_vault_data_naming_a_field_the_schema_misspells(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    char *schema = fx_read("vaults/Thing.vault.json");
    char *at = strstr(schema, "\"field\": \"Speed\"");
    assert_non_null(at);
    memcpy(at + 10, "Spede", 5);
    fx_write("vaults/Thing.vault.json", schema);
    free(schema);
    fx_write("vaultdata/things.vaultdata.json",
             "{ \"vault\": \"Thing\", \"instances\": [\n"
             "  { \"name\": \"A\", \"values\": { \"Health\": 1, \"Speed\": \"2.5\" } } ] }\n");
    assert_int_equal(fx_generate(f), 1);
    assert_non_null(strstr(f->diags.data,
        "vaultdata/things.vaultdata.json:2:43: error: instances[0].values.Speed: vault Thing has no field \"Speed\", which Vault.Fields "
        "declares; the schema's field \"Spede\" is not declared there: is it the typo?\n"));
    free(snap);
}

static void test_vault_errors_data(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("vaultdata/things.vaultdata.json",
             "{ \"vault\": \"Thing\", \"instances\": [\n"
             "  { \"name\": \"A\", \"values\": { \"Health\": \"ten\", \"Speeed\": \"1\", \"Temp\": 1 } },\n"
             "  { \"name\": \"B\", \"values\": { \"Health\": 4294967296, \"Speed\": \"1.2.3\", \"Name\": \"too long name\" } },\n"
             "  { \"name\": \"a\", \"values\": { \"Bag\": [1, 2, 3] } },\n"
             "  { \"name\": \"C\", \"values\": { \"Bag\": [7, 7], \"Speed\": 1.5 } },\n"
             "  { \"name\": \"9lives\" } ] }\n");
    fx_write("vaultdata/other.vaultdata.json", "{ \"vault\": \"Thng\", \"instances\": [] }\n");
    fx_expect_failure(f, snap,
        "vaultdata/other.vaultdata.json:1:3: error: vault: no vault schema is named \"Thng\" (closest: Thing)\n"
        "vaultdata/things.vaultdata.json:2:30: error: instances[0].values.Health: expected an integer (Integer), got a string\n"
        "vaultdata/things.vaultdata.json:2:47: error: instances[0].values.Speeed: vault Thing has no field \"Speeed\" (closest: Speed, Name, Temp)\n"
        "vaultdata/things.vaultdata.json:2:62: error: instances[0].values.Temp: \"Temp\" is transient: it starts from the schema's default and is never authored\n"
        "vaultdata/things.vaultdata.json:3:30: error: instances[1].values.Health: 4294967296 is out of range for Integer (-2147483648 to 2147483647)\n"
        "vaultdata/things.vaultdata.json:3:52: error: instances[1].values.Speed: \"1.2.3\" is not a fixed-point literal: unexpected character (the form is [-]digits[.digits])\n"
        "vaultdata/things.vaultdata.json:3:70: error: instances[1].values.Name: string of 13 bytes exceeds the capacity of 8\n"
        "vaultdata/things.vaultdata.json:4:5: error: instances[2].name: \"a\" is already the name of instances[0]\n"
        "vaultdata/things.vaultdata.json:4:30: error: instances[2].values.Bag: 3 elements exceed the capacity of 2\n"
        "vaultdata/things.vaultdata.json:5:41: error: instances[3].values.Bag[1]: repeats the key of element 0\n"
        "vaultdata/things.vaultdata.json:5:45: error: instances[3].values.Speed: expected a decimal string such as \"1.5\" (FP), got a number\n"
        "vaultdata/things.vaultdata.json:6:5: error: instances[4].name: \"9lives\" is not an instance name (an ASCII letter, then ASCII letters, digits or '_': it names C constants)\n");
}

static void stop_hanging(int sig)
{
    (void)sig;
    fail_msg("generate hung");
}

/* Every field of Vault.Fields renamed in one step: the resolver's index of names, keys and earlier
 * names holds six per entry, and it was sized for four (generate spun forever once it was full). */
static void test_vault_every_field_renamed_at_once(void **state)
{
    fixture *f = *state;
    free(good_project(f));
    fx_write("injectors/Vault.Fields.User.txt", "NewHealth <- Health\nNewSpeed <- Speed\nNewName <- Name\nNewIcon <- Icon\n"
                                                 "NewBag <- Bag\nNewTemp <- Temp\nNewMaxHealth <- MaxHealth\n");
    signal(SIGALRM, stop_hanging);
    alarm(30);
    assert_int_equal(fx_generate(f), 0);
    alarm(0);
    char *h = fx_read("generated/vaults/thing_vault.h");
    assert_non_null(strstr(h, "thing_vault_get_NewHealth(const thing_vault *v) { return v->NewHealth; }\n"));
    assert_non_null(strstr(h, "TL_DEPRECATED_ENTRY(\"Temp was renamed NewTemp in Vault.Fields"));
    free(h);
}

/* A field renamed in Vault.Fields (Coins <- Health) while the schema still spells the earlier name:
 * the member and accessors take the new name, and the earlier name's accessors stay, deprecated,
 * so code calling them builds with a warning; once the schema says Coins they go. */
static void test_vault_renamed_field_keeps_deprecated_accessors(void **state)
{
    fixture *f = *state;
    free(good_project(f));
    fx_write("injectors/Vault.Fields.User.txt", "Coins <- Health\nSpeed\nName\nIcon\nBag\nTemp\nMaxHealth\n");
    assert_int_equal(fx_generate(f), 0);
    char *h = fx_read("generated/vaults/thing_vault.h");
    assert_non_null(strstr(h, "static inline int32_t thing_vault_get_Coins(const thing_vault *v) { return v->Coins; }\n"));
    assert_non_null(strstr(h, "TL_DEPRECATED_ENTRY(\"Health was renamed Coins in Vault.Fields: call thing_vault_*_Coins\")\n"
                              "static inline int32_t thing_vault_get_Health(const thing_vault *v) { return v->Coins; }\n"));
    assert_non_null(strstr(h, "static inline void thing_vault_set_Health(thing_vault *v, int32_t value) {\n"));
    assert_non_null(strstr(h, "#define TL_DEPRECATED_ENTRY(msg)"));
    free(h);
    char *schema = xstrdup(every_schema);
    memcpy(strstr(schema, "\"Health\""), "\"Coins\" ", 8);
    fx_write("vaults/Thing.vault.json", schema);
    free(schema);
    fx_write("vaultdata/things.vaultdata.json",
             "{ \"vault\": \"Thing\", \"instances\": [\n"
             "  { \"name\": \"A\", \"values\": { \"Coins\": 1, \"Icon\": \"Sword\", \"Bag\": [1, 2] } } ] }\n");
    assert_int_equal(fx_generate(f), 0);
    h = fx_read("generated/vaults/thing_vault.h");
    assert_null(strstr(h, "_Health"));
    assert_null(strstr(h, "TL_DEPRECATED_ENTRY"));
    free(h);
}

/* A data key may be the name part of a qualified field ("Health" for "User.Health"); one field
 * set twice in an instance (names compare case-insensitively) is an error, not "last wins"; a
 * Float takes every value C rounds to a finite float, FLT_MAX's shortest spelling included. */
static void test_vault_data_keys_and_float_range(void **state)
{
    fixture *f = *state;
    free(good_project(f));
    fx_write("vaults/Thing.vault.json",
             "{ \"name\": \"Thing\", \"fields\": [\n"
             "    { \"field\": \"User.Health\", \"type\": \"Integer\", \"default\": 10 },\n"
             "    { \"field\": \"MaxHealth\", \"type\": \"Float\" } ] }\n");
    fx_write("vaultdata/things.vaultdata.json",
             "{ \"vault\": \"Thing\", \"instances\": [\n"
             "  { \"name\": \"A\", \"values\": { \"Health\": 3, \"MaxHealth\": 3.4028235e38 } } ] }\n");
    assert_int_equal(fx_generate(f), 0);
    char *h = fx_read("generated/vaults/things_data.h");
    assert_non_null(strstr(h, "        3, /* Health */\n"));
    free(h);
    char *snap = fx_snapshot("generated");
    fx_write("vaultdata/things.vaultdata.json",
             "{ \"vault\": \"Thing\", \"instances\": [\n"
             "  { \"name\": \"A\", \"values\": { \"Health\": 3, \"health\": 4, \"MaxHealth\": 3.4028236e38 } },\n"
             "  { \"name\": \"B\", \"values\": { \"MaxHealth\": 1e-50 } }, { \"name\": \"C\", \"values\": { \"MaxHealth\": 1.5e-45 } } ] }\n");
    fx_expect_failure(f, snap,
        "vaultdata/things.vaultdata.json:2:43: error: instances[0].values.health: \"health\" sets field User.Health again (\"Health\" already did: field names compare case-insensitively)\n"
        "vaultdata/things.vaultdata.json:2:56: error: instances[0].values.MaxHealth: 3.4028236e+38 is out of range for Float (a float: at most 3.40282347e+38)\n"
        "vaultdata/things.vaultdata.json:3:30: error: instances[1].values.MaxHealth: 1e-50 is too small for Float: a float would hold 0 (the smallest is 1.40129846e-45)\n");
    /* A name part two fields share names neither (the error names both); whole names do. */
    f->diags.len = 0;
    f->diags.data[0] = 0;
    snap = fx_snapshot("generated");
    fx_write("injectors/Vault.Fields.Other.txt", "Health\n");
    fx_write("vaults/Thing.vault.json",
             "{ \"name\": \"Thing\", \"fields\": [\n"
             "    { \"field\": \"User.Health\", \"type\": \"Integer\" },\n"
             "    { \"field\": \"Other.Health\", \"type\": \"Integer\" } ] }\n");
    fx_write("vaultdata/things.vaultdata.json",
             "{ \"vault\": \"Thing\", \"instances\": [\n"
             "  { \"name\": \"A\", \"values\": { \"other.health\": 2, \"User.Health\": 1 } },\n"
             "  { \"name\": \"B\", \"values\": { \"Health\": 5 } } ] }\n");
    fx_expect_failure(f, snap,
        "vaultdata/things.vaultdata.json:3:30: error: instances[1].values.Health: \"Health\" is the name part of more than one field of vault Thing (User.Health, Other.Health): write the whole name\n");
}

/* The diagnostics cleared and the generated folder's snapshot, for the next expected failure. */
static char *again(fixture *f)
{
    f->diags.len = 0;
    f->diags.data[0] = 0;
    return fx_snapshot("generated");
}

/* What jansson reads without a word: a number so close to 0 it reads as 0 (here in a Float field
 * and in a Double one, whose own check sees only the 0), and a NUL byte (it reads as the end). */
static void test_vault_errors_read_as_zero_or_end(void **state)
{
    fixture *f = *state;
    free(good_project(f));
    fx_write("vaults/Thing.vault.json",
             "{ \"name\": \"Thing\", \"fields\": [\n"
             "    { \"field\": \"Health\", \"type\": \"Double\" },\n"
             "    { \"field\": \"MaxHealth\", \"type\": \"Float\" } ] }\n");
    fx_write("vaultdata/things.vaultdata.json", "{ \"vault\": \"Thing\", \"instances\": [] }\n");
    assert_int_equal(fx_generate(f), 0);
    char *snap = again(f);
    fx_write("vaultdata/things.vaultdata.json",
             "{ \"vault\": \"Thing\", \"instances\": [\n"
             "  { \"name\": \"A\", \"values\": { \"MaxHealth\": 1e-400 } } ] }\n");
    fx_expect_failure(f, snap,
        "vaultdata/things.vaultdata.json:2:43: error: 1e-400 is too close to 0 for any number type: it would read as 0 (the smallest a double holds is 4.9e-324)\n");
    snap = again(f);
    fx_write("vaultdata/things.vaultdata.json",
             "{ \"vault\": \"Thing\", \"instances\": [\n"
             "  { \"name\": \"A\", \"values\": { \"Health\": 4.9e-325 } } ] }\n");
    fx_expect_failure(f, snap,
        "vaultdata/things.vaultdata.json:2:40: error: 4.9e-325 is too close to 0 for any number type: it would read as 0 (the smallest a double holds is 4.9e-324)\n");
    fx_write("vaultdata/things.vaultdata.json",
             "{ \"vault\": \"Thing\", \"instances\": [\n"
             "  { \"name\": \"A\", \"values\": { \"MaxHealth\": -0e5, \"Health\": 4.9e-324 } } ] }\n");
    assert_int_equal(fx_generate(f), 0); /* a zero written as one, and the smallest double, are kept */
    snap = again(f);
    static const char nul[] = "{ \"vault\": \"Thing\",\n  \"instances\": [] \0 }\n";
    fx_write_bytes("vaultdata/things.vaultdata.json", nul, sizeof nul - 1);
    fx_expect_failure(f, snap,
        "vaultdata/things.vaultdata.json:2:19: error: a NUL byte: a JSON text holds none (a binary file, or a bad copy?)\n");
}

/* A hash set of assets naming one twice; a catalog that is an ordinal domain (its first entry is
 * 0, the empty reference); a vault whose C names would be the runtime's (tl_vault_desc). */
static void test_vault_errors_repeated_assets_ordinal_catalog_and_tl(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("threadlink.json",
             "{ \"domains\": [\n"
             "    { \"name\": \"Vault.Fields\", \"output\": \"vault_fields.h\", \"reserve_zero\": true },\n"
             "    { \"name\": \"Game.Icons\", \"output\": \"icons.h\" },\n"
             "    { \"name\": \"Game.Steps\", \"output\": \"steps.h\", \"kind\": \"ordinal\" } ],\n"
             "  \"vaults\": { \"schemas\": \"vaults\", \"data\": \"vaultdata\" } }\n");
    fx_write("injectors/Vault.Fields.User.txt", "Health\nSpeed\nName\nIcon\nBag\nTemp\nMaxHealth\nLoot\nStep\n");
    fx_write("injectors/Game.Steps.User.txt", "First\nSecond\n");
    fx_write("vaults/Pack.vault.json",
             "{ \"name\": \"Pack\", \"fields\": [\n"
             "    { \"field\": \"Loot\", \"type\": \"InlineHashSet\", \"element\": \"AssetRef\", \"catalog\": \"Game.Icons\", \"capacity\": 4 } ] }\n");
    fx_write("vaultdata/packs.vaultdata.json",
             "{ \"vault\": \"Pack\", \"instances\": [ { \"name\": \"P\", \"values\": { \"Loot\": [\"Sword\", \"Shield\", \"sword\"] } } ] }\n");
    fx_expect_failure(f, snap, "vaultdata/packs.vaultdata.json:1:90: error: instances[0].values.Loot[2]: names the same asset as element 0\n");
    snap = again(f);
    fx_write("vaultdata/packs.vaultdata.json", "{ \"vault\": \"Pack\", \"instances\": [] }\n");
    fx_write("vaults/Tl.vault.json", "{ \"name\": \"Tl\", \"fields\": [ { \"field\": \"Step\", \"type\": \"Integer\" } ] }\n");
    fx_expect_failure(f, snap,
        "vaults/Tl.vault.json:1:3: error: name: \"Tl\": its header's C names would start with tl_, the runtime's own (tl_vault_desc, ...): choose another name\n");
    snap = again(f);
    fx_write("vaults/Tl.vault.json", "{ \"name\": \"Steps\", \"fields\": [ { \"field\": \"Step\", \"type\": \"AssetRef\", \"catalog\": \"Game.Steps\" } ] }\n");
    fx_expect_failure(f, snap,
        "vaults/Tl.vault.json:1:71: error: fields[0].catalog: \"Game.Steps\" is an ordinal domain (its values count from 0, which an AssetRef holds as none): a catalog is an identity domain (a content profile's Content.<Profile>, or one of ids)\n");
}

static void test_vault_errors_assets_and_catalogs(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("vaultdata/things.vaultdata.json",
             "{ \"vault\": \"Thing\", \"instances\": [\n"
             "  { \"name\": \"A\", \"values\": { \"Icon\": \"Swrod\" } } ] }\n");
    fx_expect_failure(f, snap,
        "vaultdata/things.vaultdata.json:2:30: error: instances[0].values.Icon: \"Swrod\" is not an asset in Game.Icons (closest: Sword, Shield)\n");
    snap = fx_snapshot("generated");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    char *schema = xstrdup(every_schema);
    memcpy(strstr(schema, "Game.Icons"), "Game.Icoms", 10);
    fx_write("vaults/Thing.vault.json", schema);
    free(schema);
    fx_expect_failure(f, snap,
        "vaults/Thing.vault.json:6:44: error: fields[3].catalog: no domain is named \"Game.Icoms\" (closest: Game.Icons) (an AssetRef's catalog is the identity domain of its assets)\n");
}

/* "keys" names an identity domain: each instance name must be one of its entries (case-insensitive),
 * and a name that is not, a domain that does not exist or a key that is no string is a located
 * error leaving the outputs untouched. */
static void test_vault_errors_keys(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("vaultdata/things.vaultdata.json",
             "{ \"vault\": \"Thing\", \"keys\": \"Game.Icons\", \"instances\": [\n"
             "  { \"name\": \"shield\" }, { \"name\": \"Swrod\" } ] }\n");
    fx_expect_failure(f, snap,
        "vaultdata/things.vaultdata.json:2:27: error: instances[1].name: \"Swrod\" is not an entry of Game.Icons, whose entries key this file's instances (closest: Sword, Shield)\n");
    snap = fx_snapshot("generated");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    fx_write("vaultdata/things.vaultdata.json",
             "{ \"vault\": \"Thing\", \"keys\": \"Game.Icoms\", \"instances\": [ { \"name\": \"Sword\" } ] }\n");
    fx_expect_failure(f, snap,
        "vaultdata/things.vaultdata.json:1:21: error: keys: no domain is named \"Game.Icoms\" (closest: Game.Icons)\n");
    snap = fx_snapshot("generated");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    fx_write("vaultdata/things.vaultdata.json",
             "{ \"vault\": \"Thing\", \"keys\": 3, \"instances\": [ { \"name\": \"Sword\" } ] }\n");
    fx_expect_failure(f, snap,
        "vaultdata/things.vaultdata.json:1:21: error: keys: expected the name of the domain whose entries the instances are, got an integer\n");
}

/* The value "Sprites/big-bat" of an AssetRef into a content catalog (Content.<Profile>) is the
 * id XXH32("game.sprites/big-bat"): the asset's key, its name case-folded under the profile. */
static void expect_asset_value(const char *header, const char *key, const char *instance)
{
    char want[200];
    snprintf(want, sizeof want, "    /* %s */\n    {\n        { %uu }, /* Sprite */\n", instance, tl_hash32(key, strlen(key), 0));
    if (!strstr(header, want)) fail_msg("no %s in:\n%s", want, header);
}

/* Asset references into a content catalog are written as the asset's name in it ("Sprites/Slime",
 * any case), as its member name (Sprites_big_bat) or its key; a name that is none of them is an
 * error whose suggestions are asset names. */
static void test_vault_assets_by_catalog_name(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json",
             "{ \"domains\": [ { \"name\": \"Vault.Fields\", \"output\": \"vault_fields.h\", \"reserve_zero\": true } ],\n"
             "  \"vaults\": { \"schemas\": \"vaults\", \"data\": \"vaultdata\" },\n"
             "  \"content\": [ { \"profile\": \"Game\", \"source_root\": \"assets\", \"output\": \"out\",\n"
             "                 \"categories\": [ { \"name\": \"Sprites\", \"folder\": \"Sprites\" } ] } ] }\n");
    fx_write("injectors/Vault.Fields.User.txt", "Sprite\nSeen\n");
    fx_write("assets/Sprites/Slime.png", "slime");
    fx_write("assets/Sprites/big-bat.png", "bat");
    fx_write("vaults/Unit.vault.json",
             "{ \"name\": \"Unit\", \"fields\": [ { \"field\": \"Sprite\", \"type\": \"AssetRef\", \"catalog\": \"Content.Game\" } ] }\n");
    fx_write("vaultdata/units.vaultdata.json",
             "{ \"vault\": \"Unit\", \"instances\": [\n"
             "  { \"name\": \"A\", \"values\": { \"Sprite\": \"sprites/SLIME\" } },\n"
             "  { \"name\": \"B\", \"values\": { \"Sprite\": \"Sprites/big-bat\" } },\n"
             "  { \"name\": \"C\", \"values\": { \"Sprite\": \"Sprites_big_bat\" } },\n"
             "  { \"name\": \"D\", \"values\": { \"Sprite\": \"game.sprites/slime\" } } ] }\n");
    /* A vault with no load function (an AssetRef hash set has none) does not include content.h
     * (seen_vault.h in the golden case). */
    fx_write("vaults/Seen.vault.json",
             "{ \"name\": \"Seen\", \"fields\": [ { \"field\": \"Seen\", \"type\": \"InlineHashSet\", \"element\": \"AssetRef\",\n"
             "  \"catalog\": \"Content.Game\", \"capacity\": 2 } ] }\n");
    assert_int_equal(fx_generate(f), 0);
    /* The headers this run writes, exactly: tests/gen/golden/vault-assets-by-catalog-name. Here,
     * the values against the hash of each key. */
    char *h = fx_read("generated/vaults/units_data.h");
    expect_asset_value(h, "game.sprites/slime", "A");
    expect_asset_value(h, "game.sprites/big-bat", "B");
    expect_asset_value(h, "game.sprites/big-bat", "C");
    expect_asset_value(h, "game.sprites/slime", "D");
    free(h);
    char *snap = fx_snapshot("generated");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    fx_write("vaultdata/units.vaultdata.json",
             "{ \"vault\": \"Unit\", \"instances\": [ { \"name\": \"A\", \"values\": { \"Sprite\": \"Sprites/slim\" } } ] }\n");
    fx_expect_failure(f, snap,
        "vaultdata/units.vaultdata.json:1:62: error: instances[0].values.Sprite: \"Sprites/slim\" is not an asset in Content.Game (closest: Sprites/Slime, Sprites/big-bat)\n");
}

static void test_vault_errors_config_and_syntax(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f);
    fx_write("threadlink.json",
             "{ \"domains\": [\n"
             "    { \"name\": \"Game.Icons\", \"output\": \"icons.h\" } ],\n"
             "  \"vaults\": { \"schemas\": \"schemas\", \"out\": 1 } }\n");
    fx_remove("injectors/Vault.Fields.User.txt");
    fx_expect_failure(f, snap,
        "threadlink.json:3:37: error: vaults.out: unknown key\n"
        "threadlink.json:3:3: error: vaults: vaults need the Vault.Fields domain: declare { \"name\": \"Vault.Fields\", \"output\": \"vault_fields.h\", \"reserve_zero\": true } in domains\n");
    snap = fx_snapshot("generated");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    fx_write("threadlink.json",
             "{ \"domains\": [\n"
             "    { \"name\": \"Vault.Fields\", \"output\": \"vault_fields.h\", \"reserve_zero\": true },\n"
             "    { \"name\": \"Game.Icons\", \"output\": \"icons.h\" } ],\n"
             "  \"vaults\": { \"schemas\": \"vaults\", \"data\": \"vaultdata\" } }\n");
    fx_write("injectors/Vault.Fields.User.txt", "Health\n");
    fx_write("vaults/Thing.vault.json", "{ \"name\": \"Thing\", \"fields\": [ }\n");
    fx_expect_failure(f, snap,
        "vaults/Thing.vault.json:1:32: error: unexpected token near '}'\n");
    /* A UTF-8 byte order mark (Windows editors write one) is skipped, columns counted after it. */
    snap = fx_snapshot("generated");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    fx_write("vaults/Thing.vault.json", "\xEF\xBB\xBF{ \"name\": \"Thing\", \"fields\": [ }\n");
    fx_expect_failure(f, snap,
        "vaults/Thing.vault.json:1:32: error: unexpected token near '}'\n");
    /* Two schema files one name apart in case: a macOS or Windows checkout holds only one. */
    snap = fx_snapshot("generated");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    fx_write("vaults/Thing.vault.json", "{ \"name\": \"Thing\", \"fields\": [] }\n");
    fx_write("vaults/thing.vault.json", "{ \"name\": \"Other\", \"fields\": [] }\n");
    fx_expect_failure(f, snap,
        "vaults/thing.vault.json: error: vaults/Thing.vault.json and vaults/thing.vault.json differ only in case: a checkout on macOS or Windows holds one of them and silently loses the other; merge them into one\n");
}

/* Outputs go into directories the run made (nothing there to compare with: written without
 * looking for a previous file) and into existing ones (compared, replaced only when changed), run
 * after run in one process: a directory made by one run is an existing one for the next, which
 * then rewrites nothing. The bytes are the same either way, and files are 0644 whatever the umask. */
/* "output": "." (what Meson's outputs need) is the generated directory itself: plain paths and
 * guards, and the headers the default folder held are removed as no longer generated. */
static void test_vault_gen_output_in_generated_dir(void **state)
{
    fixture *f = *state;
    free(good_project(f));
    char *cfg = fx_read("threadlink.json");
    char *at = strstr(cfg, "\"data\": \"vaultdata\"");
    assert_non_null(at);
    char *changed = xasprintf("%.*s\"data\": \"vaultdata\", \"output\": \".\"%s", (int)(at - cfg), cfg, at + strlen("\"data\": \"vaultdata\""));
    fx_write("threadlink.json", changed);
    f->summary.len = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_non_null(strstr(f->summary.data, "removed generated/vaults/thing_vault.h: no longer generated\n"));
    char *h = fx_read("generated/thing_vault.h");
    assert_non_null(h);
    assert_non_null(strstr(h, "#ifndef TLG_THING_VAULT_H_INCLUDED\n"));
    assert_false(fx_exists("generated/vaults/things_data.h"));
    assert_true(fx_exists("generated/things_data.h"));
    free(h), free(changed), free(cfg);
}

static void test_vault_gen_made_and_existing_dirs(void **state)
{
    fixture *f = *state;
    char *first = good_project(f);
    static const char *const outputs[] = {"generated/vault_fields.h", "generated/icons.h", "generated/vaults/thing_vault.h",
                                          "generated/vaults/things_data.h", "generated/vaults/vault-manifest.json"};
    enum { OUTPUTS = sizeof outputs / sizeof outputs[0] };
    /* The vaults directory removed: this run makes it again and writes its two headers and the
     * vault manifest there. */
    fx_remove("generated/vaults/thing_vault.h");
    fx_remove("generated/vaults/things_data.h");
    fx_remove("generated/vaults/vault-manifest.json");
    assert_int_equal(rmdir("generated/vaults"), 0);
    mode_t mask = umask(077);
    int rc = fx_generate(f);
    umask(mask);
    assert_int_equal(rc, 0);
    char *made = fx_snapshot("generated");
    assert_string_equal(first, made);
    struct stat before[OUTPUTS], after;
    for (int i = 0; i < OUTPUTS; i++) {
        assert_int_equal(lstat(outputs[i], &before[i]), 0);
        assert_int_equal(before[i].st_mode & 07777, 0644);
    }
    /* Without the stamp the next run emits and compares every output: none differs, none is
     * replaced (same inode, same modification time). */
    fx_remove("generated/" ".threadlink-gen.stamp");
    assert_int_equal(fx_generate(f), 0);
    for (int i = 0; i < OUTPUTS; i++) {
        assert_int_equal(lstat(outputs[i], &after), 0);
        assert_true(after.st_ino == before[i].st_ino);
        assert_true(after.st_mtim.tv_sec == before[i].st_mtim.tv_sec && after.st_mtim.tv_nsec == before[i].st_mtim.tv_nsec);
    }
    char *again = fx_snapshot("generated");
    assert_string_equal(first, again);
    /* A changed default: the vault's header is replaced (a new file renamed over it), the domain
     * headers are not. */
    char *changed = xstrdup(every_schema);
    char *ten = strstr(changed, "\"default\": 10");
    assert_non_null(ten);
    ten[strlen("\"default\": 1")] = '1';
    fx_write("vaults/Thing.vault.json", changed);
    free(changed);
    assert_int_equal(fx_generate(f), 0);
    assert_int_equal(lstat("generated/vaults/thing_vault.h", &after), 0);
    assert_true(after.st_ino != before[2].st_ino);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(lstat(outputs[i], &after), 0);
        assert_true(after.st_ino == before[i].st_ino);
    }
    /* One directory holding every output, made by one run: the next run begins in that same
     * directory and must compare (it is an existing directory now), not write blindly. */
    fx_write("threadlink.json",
             "{ \"generated_dir\": \"one\", \"domains\": [ { \"name\": \"Game.Icons\", \"output\": \"icons.h\" } ] }\n");
    fx_remove("injectors/Vault.Fields.User.txt");
    rc = fx_generate(f);
    if (rc != 0) fprintf(stderr, "%s", f->diags.data);
    assert_int_equal(rc, 0);
    assert_int_equal(lstat("one/icons.h", &before[0]), 0);
    fx_remove("one/" ".threadlink-gen.stamp");
    assert_int_equal(fx_generate(f), 0);
    assert_int_equal(lstat("one/icons.h", &after), 0);
    assert_true(after.st_ino == before[0].st_ino);
    free(first);
    free(made);
    free(again);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vault_fp_literals_exact),
        cmocka_unit_test_setup_teardown(test_vault_errors_undeclared_and_removed_fields, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vault_errors_schema, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vault_errors_data, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vault_data_naming_a_renamed_field, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vault_data_naming_a_field_the_schema_misspells, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vault_errors_read_as_zero_or_end, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vault_errors_repeated_assets_ordinal_catalog_and_tl, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vault_errors_assets_and_catalogs, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vault_errors_keys, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vault_assets_by_catalog_name, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vault_errors_config_and_syntax, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vault_renamed_field_keeps_deprecated_accessors, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vault_every_field_renamed_at_once, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vault_data_keys_and_float_range, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vault_gen_output_in_generated_dir, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_vault_gen_made_and_existing_dirs, fixture_setup, fixture_teardown),
    };
    return cmocka_run_group_tests_name("vault-gen", tests, NULL, NULL);
}
