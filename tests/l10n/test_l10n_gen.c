/* The generator's text stage: plural rules against the C compiler's own evaluation and the
 * runtime's stack code, and every input error with its exact diagnostic (file:line:col, closest
 * names) and the generated directory untouched; missing translations (warning, or error under
 * "missing": "error"), tombstoned keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TL_L10N_IMPL
#include <threadlink/l10n.h>

#include <xxhash.h>

#include "gen_fixture.h"
#include "l10n/plural.h"

/* ---- plural rules ------------------------------------------------------------------------------ */

static src_loc no_loc(void *ctx, size_t offset)
{
    (void)ctx;
    return loc_at("rule", 1, (uint32_t)offset + 1);
}

/* Each rule as text and as C: the parser's evaluation, the compiled code's and C's agree. */
static void check_rule(uint32_t nplurals, const char *expr, uint64_t (*c_rule)(uint64_t))
{
    char text[256];
    plural_rule r;
    snprintf(text, sizeof text, "nplurals=%u; plural=%s;", nplurals, expr);
    if (!plural_parse(text, strlen(text), no_loc, NULL, &r)) fail_msg("refused: %s", text);
    assert_int_equal(r.nplurals, nplurals);
    for (uint64_t n = 0; n < 3000; n++) {
        uint64_t want = c_rule(n), code = 99;
        assert_int_equal(plural_eval(&r, n, NULL), want);
        assert_int_equal(tl_l10n_plural_run((const unsigned char *)r.code.data, (uint32_t)r.code.len, n, &code), TL_L10N_OK);
        assert_int_equal(code, want);
    }
    plural_free(&r);
}

/* C evaluates each rule as the generator must: unsigned 64-bit, C's precedence. */
static uint64_t r0(uint64_t n) { return n != 1; }
static uint64_t r1(uint64_t n) { return n > 1; }
static uint64_t r2(uint64_t n) { (void)n; return 0; }
static uint64_t r3(uint64_t n) { return n % 10 == 1 && n % 100 != 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20) ? 1 : 2; }
static uint64_t r4(uint64_t n) { return n == 1 ? 0 : n == 0 || (n % 100 > 0 && n % 100 < 20) ? 1 : 2; }
static uint64_t r5(uint64_t n) { return n % 100 == 1 ? 0 : n % 100 == 2 ? 1 : n % 100 == 3 || n % 100 == 4 ? 2 : 3; }
static uint64_t r6(uint64_t n) { return n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n % 100 >= 3 && n % 100 <= 10 ? 3 : n % 100 >= 11 ? 4 : 5; }
static uint64_t r7(uint64_t n) { return !(n == 1); }
static uint64_t r8(uint64_t n) { return (n + 3) * 2 / 7 % 5; }
static uint64_t r9(uint64_t n) { return n - 1 - 1 < 5 || !!0; }
static uint64_t r10(uint64_t n) { (void)n; return 1 ? 2 : 0 ? 1 : 0; }

static void test_l10n_plural_rules_agree_with_c(void **state)
{
    (void)state;
    check_rule(2, "n != 1", r0);
    check_rule(2, "(n > 1)", r1);
    check_rule(1, "0", r2);
    check_rule(3, "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)", r3);
    check_rule(3, "(n==1 ? 0 : n==0 || (n%100>0 && n%100<20) ? 1 : 2)", r4);
    check_rule(4, "(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3)", r5);
    check_rule(6, "(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5)", r6);
    check_rule(2, "!(n==1)", r7);
    check_rule(5, "(n + 3) * 2 / 7 % 5", r8);
    check_rule(2, "n - 1 - 1 < 5 || !!0", r9);
    check_rule(3, "1 ? 2 : 0 ? 1 : 0", r10);
}

/* ---- a project ---------------------------------------------------------------------------------- */

static const char en_po[] =
    "msgid \"\"\n"
    "msgstr \"\"\n"
    "\"Content-Type: text/plain; charset=UTF-8\\n\"\n"
    "\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n"
    "\n"
    "msgctxt \"Title\"\n"
    "msgid \"Threadlink\"\n"
    "msgstr \"\"\n"
    "\n"
    "msgctxt \"Score\"\n"
    "msgid \"Score: {score:int}\"\n"
    "msgstr \"\"\n"
    "\n"
    "msgctxt \"Greeting\"\n"
    "msgid \"Hello, {name:str}! {coins:int} coins.\"\n"
    "msgstr \"\"\n"
    "\n"
    "msgctxt \"Left\"\n"
    "msgid \"One left\"\n"
    "msgid_plural \"{count:int} left\"\n"
    "msgstr[0] \"\"\n"
    "msgstr[1] \"\"\n";

static const char fr_head[] =
    "msgid \"\"\n"
    "msgstr \"\"\n"
    "\"Content-Type: text/plain; charset=UTF-8\\n\"\n"
    "\"Plural-Forms: nplurals=2; plural=(n > 1);\\n\"\n"
    "\n";

static const char fr_body[] =
    "msgctxt \"Title\"\n"
    "msgid \"Threadlink\"\n"
    "msgstr \"Threadlink\"\n"
    "\n"
    "msgctxt \"Score\"\n"
    "msgid \"Score: {score:int}\"\n"
    "msgstr \"Score : {score}\"\n"
    "\n"
    "msgctxt \"Greeting\"\n"
    "msgid \"Hello, {name:str}! {coins:int} coins.\"\n"
    "msgstr \"{coins} pièces, {name} !\"\n"
    "\n"
    "msgctxt \"Left\"\n"
    "msgid \"One left\"\n"
    "msgid_plural \"{count:int} left\"\n"
    "msgstr[0] \"{count} restant\"\n"
    "msgstr[1] \"{count} restants\"\n";

/* fr_body with one text changed, as a translator's edit. */
static const char fr_body_edited[] =
    "msgctxt \"Title\"\nmsgid \"Threadlink\"\nmsgstr \"Fil\"\n"
    "msgctxt \"Score\"\nmsgid \"Score: {score:int}\"\nmsgstr \"Points : {score}\"\n"
    "msgctxt \"Greeting\"\nmsgid \"Hello, {name:str}! {coins:int} coins.\"\nmsgstr \"Salut {name}\"\n"
    "msgctxt \"Left\"\nmsgid \"One left\"\nmsgid_plural \"{count:int} left\"\nmsgstr[0] \"a\"\nmsgstr[1] \"b\"\n";

static void write_fr(const char *body)
{
    char *text = xasprintf("%s%s", fr_head, body);
    fx_write("text/fr.po", text);
    free(text);
}

static char *good_project(fixture *f, const char *extra_config)
{
    char *cfg = xasprintf("{ \"domains\": [], \"text\": { \"source\": \"text/en.po\"%s } }\n", extra_config ? extra_config : "");
    fx_write("threadlink.json", cfg);
    free(cfg);
    fx_write("text/en.po", en_po);
    write_fr(fr_body);
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->diags.data, "");
    assert_true(fx_exists("generated/text.h"));
    assert_true(fx_exists("generated/text/fr.tltext"));
    f->diags.len = 0;
    f->diags.data[0] = 0;
    return fx_snapshot("generated");
}

/* ---- errors ------------------------------------------------------------------------------------- */

static void test_l10n_errors_in_a_translation(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f, NULL);
    write_fr("msgctxt \"Scroe\"\n"                            /* 6 */
             "msgid \"Score: {score:int}\"\n"
             "msgstr \"Score : {score}\"\n"
             "\n"
             "msgctxt \"Greeting\"\n"                          /* 10 */
             "msgid \"Hello, {name:str}! {coins:int} coins.\"\n"
             "msgstr \"{coins:str} pièces, {nmae} !\"\n"
             "\n"
             "msgctxt \"Title\"\n"                             /* 14 */
             "msgid \"Threadlink\"\n"
             "msgstr \"Threadlink\"\n"
             "\n"
             "msgctxt \"title\"\n"                             /* 18 */
             "msgid \"Threadlink\"\n"
             "msgstr \"Threadlink\"\n"
             "\n"
             "msgctxt \"Left\"\n"                              /* 22 */
             "msgid \"One left\"\n"
             "msgstr \"restant\"\n"
             "\n"
             "msgctxt \"Score\"\n"                             /* 26 */
             "msgid \"Score: {score:int}\"\n"
             "msgstr \"Score : {score} {bonus:int}\"\n");
    fx_expect_failure(f, snap,
        "text/fr.po:6:1: error: key Scroe is not in the source file; did you mean Score?\n"
        "text/fr.po:12:9: error: placeholder {coins} is int in the source text, not str\n"
        "text/fr.po:12:30: error: placeholder {nmae} is not in the source text of Greeting; did you mean {name}?\n" /* è: 2 bytes */
        "text/fr.po:18:1: error: key title is translated twice in this file\n"
        "text/fr.po:23:1: error: Left is plural in the source file: give it msgid_plural and msgstr[0], msgstr[1], ...\n"
        "text/fr.po:28:25: error: placeholder {bonus} is not in the source text of Score\n");
}

static void test_l10n_errors_of_the_lexer(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f, NULL);
    write_fr("msgctxt \"Title\"\n"                             /* 6 */
             "msgid \"Threadlink\"\n"
             "msgstr \"Thread\xC3\x28link\"\n"                 /* invalid UTF-8 */
             "# a comment \xFF\n"
             "msgctxt \"Score\"\n"                             /* 10 */
             "msgid \"Score: {score:int}\"\n"
             "msgstr \"Score : {score}\n"                      /* not closed */
             "msgctxt \"Greeting\"\n"                          /* 13 */
             "msgid \"Hello, {name:str}! {coins:int} coins.\"\n"
             "msgstr \"\\q\"\n"
             "msgtxt \"Left\"\n"                               /* 16 */
             "msgstr[1] \"x\"\n"
             "\"continues msgstr[1]'s strings\"\n"
             "# a comment\n"
             "\"stray\"\n");                                   /* 20 */
    fx_expect_failure(f, snap,
        "text/fr.po:8:15: error: invalid UTF-8 (byte 0xC3)\n"
        "text/fr.po:9:13: error: invalid UTF-8 (byte 0xFF)\n"
        "text/fr.po:12:8: error: string not closed on its line (a '\"' is missing)\n"
        "text/fr.po:15:9: error: escape '\\q' is not supported in PO strings here (\\n, \\t, \\\" and \\\\ are)\n"
        "text/fr.po:16:1: error: expected a keyword (msgctxt, msgid, msgid_plural, msgstr, msgstr[n]), a string or a comment\n"
        "text/fr.po:17:1: error: msgstr[n] needs a msgid_plural (a plain entry has one msgstr)\n"
        "text/fr.po:20:1: error: a string must follow a keyword (or continue the strings of the line before)\n");
}

/* A keyword given again inside an entry is that entry's mistake, said as such, and an entry whose
 * keyword was refused gets no "has no msgstr" after it. */
static void test_l10n_errors_of_keywords_given_again(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f, NULL);
    write_fr("msgctxt \"Title\"\n"                             /* 6 */
             "msgctxt \"Title\"\n"
             "msgid \"Threadlink\"\nmsgstr \"Fil\"\n"
             "msgctxt \"Score\"\n"                             /* 10 */
             "msgid \"Score: {score:int}\"\n"
             "msgid \"Score: {score:int}\"\n"
             "msgstr \"Points\"\n"
             "msgctxt \"Left\"\n"                              /* 14 */
             "msgid \"One left\"\nmsgid_plural \"{count:int} left\"\n"
             "msgstr \"restant\"\n");                          /* 17 */
    fx_expect_failure(f, snap,
        "text/fr.po:7:1: error: msgctxt is given twice\n"
        "text/fr.po:12:1: error: msgid is given twice\n"
        "text/fr.po:17:1: error: msgstr of a plural entry is written msgstr[0], msgstr[1], ...\n");
}

static void test_l10n_errors_of_plural_rules(void **state)
{
    static const struct {
        const char *rule, *diag;
    } cases[] = {
        {"nplurals=0; plural=0;", "text/fr.po:4:25: error: nplurals must be 1 to 16, the forms a language has\n"},
        {"nplurals=2; plural=(n > 1;", "text/fr.po:4:35: error: this '(' is not closed (a ')' is missing)\n"},
        {"nplurals=2; plural=n % 0;", "text/fr.po:4:35: error: the plural expression divides by zero for n = 0\n"},
        {"nplurals=2; plural=n;", "text/fr.po:4:35: error: the plural expression gives form 2 for n = 2, but nplurals is 2\n"},
        {"nplurals=2; plural=n $ 1;", "text/fr.po:4:37: error: unexpected '$' after the plural expression\n"},
        {"nplurals=2; plural=n ? 1 0;", "text/fr.po:4:41: error: expected ':' of the '?:' in the plural expression\n"},
        {"nplurals=2; plural=(n > k);", "text/fr.po:4:40: error: unexpected 'k' in the plural expression (its terms are n, numbers and parentheses)\n"},
        {"nplurals=2; plural=n > 4294967296;", "text/fr.po:4:39: error: number in the plural expression is too large (at most 4294967295)\n"},
        {"plural=(n > 1); nplurals=2;", "text/fr.po:4:16: error: Plural-Forms must read \"nplurals=N; plural=EXPRESSION;\": expected 'nplurals='\n"},
        {"nplurals=2; plural=", "text/fr.po:4:35: error: the plural expression ends too early (expected n, a number or '(')\n"},
    };
    fixture *f = *state;
    char *snap = good_project(f, NULL);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = xasprintf("msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\"Plural-Forms: %s\\n\"\n\n%s",
                               cases[i].rule, fr_body);
        fx_write("text/fr.po", text);
        free(text);
        f->diags.len = 0;
        f->diags.data[0] = 0;
        fx_expect_failure(f, xstrdup(snap), cases[i].diag);
    }
    free(snap);
}

/* A key whose function would be a name the keys' header has already: its enum type (key "keys"
 * with the prefix "text" gives text_keys()), an enumerator ("Keys_Title" with the prefix "Text"
 * gives Text_Keys_Title(), Title's enumerator), a function of the header. */
static void test_l10n_key_functions_clashing_with_the_keys_header(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f, NULL);
    fx_write("text/en.po",
             "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n"
             "msgctxt \"keys\"\nmsgid \"Keys\"\nmsgstr \"\"\n\n"            /* 5 */
             "msgctxt \"Title\"\nmsgid \"T\"\nmsgstr \"\"\n\n"
             "msgctxt \"keys_name\"\nmsgid \"N\"\nmsgstr \"\"\n");          /* 13 */
    fx_remove("text/fr.po");
    fx_expect_failure(f, snap,
        "text/en.po:5:1: error: key keys would give the function text_keys(), which is the keys' enum type already: rename the key (or set text.prefix)\n"
        "text/en.po:13:1: error: key keys_name would give the function text_keys_name(), which is a function of the text headers already: rename the key (or set text.prefix)\n");
    snap = fx_snapshot("generated");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    fx_write("threadlink.json", "{ \"domains\": [], \"text\": { \"source\": \"text/en.po\", \"prefix\": \"Text\" } }\n");
    fx_write("text/en.po",
             "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n"
             "msgctxt \"Title\"\nmsgid \"T\"\nmsgstr \"\"\n\n"
             "msgctxt \"Keys_Title\"\nmsgid \"K\"\nmsgstr \"\"\n");          /* 9 */
    fx_expect_failure(f, snap,
        "text/en.po:9:1: error: key Keys_Title would give the function Text_Keys_Title(), which is an enumerator of the keys' enum already: rename the key (or set text.prefix)\n");
}

/* A translation that looks meant and is not a locale's file is said and left out: de.PO (its
 * translation would vanish without a word), fr.bak.po (a backup would ship as locale "fr.bak"). */
static void test_l10n_files_that_are_no_locale_are_said(void **state)
{
    fixture *f = *state;
    free(good_project(f, NULL));
    char *fr = fx_read("text/fr.po");
    fx_write("text/de.PO", fr);
    fx_write("text/fr.bak.po", fr);
    free(fr);
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->diags.data,
        "text/de.PO: warning: ignored: translations end in \".po\", in lower case\n"
        "text/fr.bak.po: warning: ignored: its stem has a '.', which no locale name has (a backup?): name it <locale>.po to ship it\n");
    assert_false(fx_exists("generated/text/fr.bak.tltext"));
    assert_false(fx_exists("generated/text/de.tltext"));
    char *h = fx_read("generated/text.h");
    assert_null(strstr(h, "fr.bak"));
    free(h);
}

static void test_l10n_errors_in_the_source(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f, NULL);
    fx_write("text/en.po",
             "msgid \"\"\n"
             "msgstr \"\"\n"
             "\"Content-Type: text/plain; charset=ISO-8859-1\\n\"\n"
             "\n"
             "msgid \"No key\"\n"                              /* 5 */
             "msgstr \"\"\n"
             "\n"
             "msgctxt \"my key\"\n"                            /* 8 */
             "msgid \"x\"\n"
             "msgstr \"\"\n"
             "\n"
             "msgctxt \"Score\"\n"                             /* 12 */
             "msgid \"Score: {score} {n:itn} {int:int} } {\"\n"
             "msgstr \"\"\n"
             "\n"
             "msgctxt \"SCORE\"\n"                             /* 16 */
             "msgid \"Again\"\n"
             "msgstr \"\"\n"
             "\n"
             "msgctxt \"Left\"\n"                              /* 20 */
             "msgid \"One left\"\n"
             "msgid_plural \"{who:str} left\"\n"
             "msgstr[0] \"\"\n"
             "msgstr[1] \"\"\n"
             "\n"
             "msgctxt \"Tab\"\n"                               /* 26 */
             "msgid \"a\\tb\\nc{x:int}{x:str}\"\n"
             "msgstr \"\"\n");
    fx_expect_failure(f, snap,
        "text/en.po:3:36: error: charset ISO-8859-1: threadlink reads PO files in UTF-8 (save the file as UTF-8 and say charset=UTF-8)\n"
        "text/en.po:5:1: error: entry without msgctxt: each entry's msgctxt is its key (msgctxt \"Title\")\n"
        "text/en.po:8:1: error: msgctxt \"my key\" is not a key: a key is a C identifier (a letter, then letters, digits or '_'; at most 128 bytes)\n"
        "text/en.po:13:15: error: placeholder {score} of the source text needs its type: {name:int}, {name:uint} or {name:str}\n"
        "text/en.po:13:26: error: unknown placeholder type 'itn' (int, uint or str); did you mean 'int'?\n" /* the string's first bad placeholder ends it */
        "text/en.po:22:1: error: the plural text of Left has no integer placeholder to count: its first {name:int} (or uint) picks the form\n"
        "text/en.po:27:22: error: placeholder {x} is str here but int before (one type per name)\n"
        "text/en.po:16:1: error: key SCORE is declared twice (first at line 12, in another case: keys ignore case)\n");
}

static void test_l10n_errors_in_placeholders(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f, NULL);
    fx_write("text/en.po",
             "msgctxt \"A\"\n"
             "msgid \"{n:itn}\"\n"
             "msgstr \"\"\n"
             "msgctxt \"B\"\n"
             "msgid \"{int:int}\"\n"
             "msgstr \"\"\n"
             "msgctxt \"C\"\n"
             "msgid \"a } b\"\n"
             "msgstr \"\"\n"
             "msgctxt \"D\"\n"
             "msgid \"a { b\"\n"
             "msgstr \"\"\n"
             "msgctxt \"E\"\n"
             "msgid \"{a:int\"\n"
             "msgstr \"\"\n");
    fx_write("text/fr.po", "");
    fx_expect_failure(f, snap,
        "text/en.po:2:11: error: unknown placeholder type 'itn' (int, uint or str); did you mean 'int'?\n"
        "text/en.po:5:8: error: placeholder {int} cannot be named so: its name becomes a parameter of a C function (not a keyword, text, buf, size, args, tl..., or _...)\n"
        "text/en.po:8:10: error: a lone '}': write '}}' for a brace\n"
        "text/en.po:11:10: error: '{' starts a placeholder such as {score:int}: write '{{' for a brace\n"
        "text/en.po:14:14: error: expected '}' to close the placeholder ({name} or {name:type})\n");
}

static void test_l10n_plural_forms_of_a_translation(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f, NULL);
    write_fr("msgctxt \"Left\"\n"
             "msgid \"One left\"\n"
             "msgid_plural \"{count:int} left\"\n"
             "msgstr[0] \"{count} restant\"\n"
             "msgstr[1] \"{count} restants\"\n"
             "msgstr[2] \"{count} restants\"\n"
             "\n"
             "msgctxt \"Title\"\n"
             "msgid \"Threadlink\"\n"
             "msgid_plural \"Threadlinks\"\n"
             "msgstr[0] \"\"\n"
             "msgstr[2] \"\"\n");
    fx_expect_failure(f, snap,
        "text/fr.po:17:1: error: msgstr[n] is out of order (msgstr[0], msgstr[1], ... each once)\n");
    write_fr("msgctxt \"Left\"\n"
             "msgid \"One left\"\n"
             "msgid_plural \"{count:int} left\"\n"
             "msgstr[0] \"{count} restant\"\n"
             "msgstr[1] \"{count} restants\"\n"
             "msgstr[2] \"{count} restants\"\n"
             "\n"
             "msgctxt \"Score\"\n"
             "msgid \"Score: {score:int}\"\n"
             "msgid_plural \"Scores\"\n"
             "msgstr[0] \"\"\n"
             "msgstr[1] \"x\"\n"
             "\n"
             "msgctxt \"Title\"\n"
             "msgid \"Threadlink\"\n"
             "msgstr \"Threadlink\"\n");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    fx_expect_failure(f, fx_snapshot("generated"),
        "text/fr.po:9:1: error: Left has 3 plural forms here, but this file's Plural-Forms says nplurals=2\n"
        "text/fr.po:14:1: error: Score is not plural in the source file: give it one msgstr (no msgid_plural)\n");
    write_fr("msgctxt \"Greeting\"\n"
             "msgid \"Hello\"\n");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    fx_expect_failure(f, fx_snapshot("generated"),
        "text/fr.po:6:1: error: entry has no msgstr (every msgid needs one, \"\" when untranslated)\n");
    write_fr("msgctxt \"Left\"\n"
             "msgid \"{count:int} left\"\n"
             "msgid_plural \"{count:int} left\"\n"
             "msgstr[0] \"{count} restant\"\n");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    fx_expect_failure(f, fx_snapshot("generated"),
        "text/fr.po:9:1: error: Left has 1 plural form here, but this file's Plural-Forms says nplurals=2\n");
}

/* ---- missing translations, stale and fuzzy ones -------------------------------------------------- */

static void test_l10n_missing_translation_warns_by_default(void **state)
{
    fixture *f = *state;
    free(good_project(f, NULL));
    write_fr("msgctxt \"Title\"\n"
             "msgid \"Threadlink!\"\n"
             "msgstr \"Threadlink\"\n"
             "\n"
             "#, fuzzy\n"
             "msgctxt \"Score\"\n"
             "msgid \"Score: {score:int}\"\n"
             "msgstr \"Score : {score}\"\n");
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->diags.data,
        "text/fr.po:7:1: warning: the msgid of Title differs from the source's: the source text changed since this translation (review it, then copy the new msgid)\n"
        "text/fr.po: warning: no translation of Greeting (the source text is shown instead)\n"
        "text/fr.po: warning: no translation of Left (the source text is shown instead)\n"
        "text/fr.po: warning: no translation of Score (the source text is shown instead)\n");
    /* check reports them too, and finds nothing to change. */
    f->diags.len = 0;
    f->diags.data[0] = 0;
    assert_int_equal(fx_run(f, GEN_CHECK), 0);
    assert_non_null(strstr(f->diags.data, "text/fr.po: warning: no translation of Greeting"));
}

static void test_l10n_missing_translation_is_an_error_when_configured(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f, ", \"missing\": \"error\"");
    write_fr("msgctxt \"Title\"\n"
             "msgid \"Threadlink\"\n"
             "msgstr \"Threadlink\"\n");
    fx_expect_failure(f, snap,
        "text/fr.po: error: no translation of Greeting (the source text is shown instead)\n"
        "text/fr.po: error: no translation of Left (the source text is shown instead)\n"
        "text/fr.po: error: no translation of Score (the source text is shown instead)\n");
}

/* A regional locale needs only what differs: its parent fills the rest. */
static void test_l10n_regional_locale_falls_back_to_its_parent(void **state)
{
    fixture *f = *state;
    free(good_project(f, ", \"missing\": \"error\""));
    fx_write("text/fr_CA.po", "msgctxt \"Title\"\nmsgid \"Threadlink\"\nmsgstr \"Fil\"\n");
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->diags.data, "");
    assert_true(fx_exists("generated/text/fr_CA.tltext"));
    fx_write("text/FR-ca.po", "");
    assert_int_equal(fx_generate(f), 1);
    assert_non_null(strstr(f->diags.data, "text/fr_CA.po: error: locale fr_CA is text/FR-ca.po again"));
}

/* ---- config ------------------------------------------------------------------------------------- */

static void test_l10n_errors_in_the_config(void **state)
{
    fixture *f = *state;
    char *snap = good_project(f, NULL);
    fx_write("threadlink.json",
             "{ \"domains\": [ { \"name\": \"Text.Keys\", \"output\": \"keys.h\" } ],\n"
             "  \"text\": { \"source\": \"text/en.txt\", \"sorce\": 1, \"prefix\": \"2x\", \"missing\": \"eror\" } }\n");
    fx_expect_failure(f, snap,
        "threadlink.json:2:38: error: text.sorce: unknown key (did you mean \"source\"?)\n"
        "threadlink.json:2:13: error: text.source: \"text/en.txt\" is not a PO file (its name ends in .po: the stem names the source locale)\n"
        "threadlink.json:1:18: error: domains[0].name: the text stage declares domain \"Text.Keys\" (text.domain) from its source file: remove this one, or set text.domain to another name\n"
        "threadlink.json:2:50: error: text.prefix: \"2x\" is not a C identifier (a letter, then letters, digits or '_')\n"
        "threadlink.json:2:66: error: text.missing: expected \"warning\" or \"error\", got \"eror\" (did you mean \"error\"?)\n");
}

/* ---- identity ----------------------------------------------------------------------------------- */

static void test_l10n_removed_key_is_a_tombstone(void **state)
{
    fixture *f = *state;
    free(good_project(f, NULL));
    char *before = fx_read("generated/text_keys.h");
    assert_non_null(strstr(before, "Text_Keys_Greeting = "));
    free(before);
    const char *cut = strstr(en_po, "msgctxt \"Greeting\"");
    const char *after = strstr(en_po, "msgctxt \"Left\"");
    char *en = xasprintf("%.*s%s", (int)(cut - en_po), en_po, after);
    fx_write("text/en.po", en);
    free(en);
    write_fr("msgctxt \"Title\"\nmsgid \"Threadlink\"\nmsgstr \"Threadlink\"\n"
             "msgctxt \"Score\"\nmsgid \"Score: {score:int}\"\nmsgstr \"Score : {score}\"\n"
             "msgctxt \"Left\"\nmsgid \"One left\"\nmsgid_plural \"{count:int} left\"\nmsgstr[0] \"a\"\nmsgstr[1] \"b\"\n");
    assert_int_equal(fx_generate(f), 0);
    assert_non_null(strstr(f->summary.data, "Text.Keys: 0 added, 1 removed (tombstoned)"));
    char *keys = fx_read("generated/text_keys.h"), *text = fx_read("generated/text.h");
    char *manifest = fx_read("generated/Text.Keys.manifest.json");
    assert_non_null(strstr(keys, "Text_Keys_Greeting TL_DEPRECATED_ENTRY("));
    assert_non_null(strstr(manifest, "\"name\": \"Greeting\", \"scope\": \"Text\""));
    assert_non_null(strstr(manifest, "\"tombstone\": true"));
    assert_null(strstr(text, "text_Greeting"));
    assert_non_null(strstr(text, "#define TEXT_INDEX_Title 2u"));
    free(keys);
    free(text);
    free(manifest);
}

/* ---- the tables as content ---------------------------------------------------------------------- */

/* The XXH64 of a file, as 16 hex digits, and its size. */
static void file_hash(const char *path, char hex[17], size_t *size)
{
    FILE *file = fopen(path, "rb");
    assert_non_null(file);
    buf b = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, file)) > 0) buf_put(&b, chunk, n);
    fclose(file);
    snprintf(hex, 17, "%016llx", (unsigned long long)XXH64(b.data, b.len, 0));
    *size = b.len;
    buf_free(&b);
}

/* The catalog of a profile packing the tables names each with the size and hash of the bytes
 * this very run writes: one generate leaves check with nothing to do, after a change too. */
static void expect_catalog_of_tables(void)
{
    char *catalog = fx_read("generated/content_text_catalog.h");
    for (int i = 0; i < 2; i++) {
        char hex[17], want[128];
        size_t size;
        file_hash(i ? "generated/text/fr.tltext" : "generated/text/en.tltext", hex, &size);
        snprintf(want, sizeof want, "\"%s\", CONTENT_TEXT_CATEGORY_All, UINT64_C(%zu), UINT64_C(0x%s)", i ? "fr" : "en", size, hex);
        if (!strstr(catalog, want)) fail_msg("the catalog lacks %s:\n%s", want, catalog);
    }
    free(catalog);
}

static void test_l10n_tables_pack_as_content(void **state)
{
    fixture *f = *state;
    free(good_project(f, NULL));
    fx_write("threadlink.json",
             "{ \"domains\": [], \"text\": { \"source\": \"text/en.po\" },\n"
             "  \"content\": [ { \"profile\": \"Text\", \"source_root\": \"generated/text\", \"archive\": \"none\" } ] }\n");
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->diags.data, "");
    expect_catalog_of_tables();
    assert_int_equal(fx_run(f, GEN_CHECK), 0);
    write_fr(fr_body_edited);
    assert_int_equal(fx_generate(f), 0);
    expect_catalog_of_tables();
    assert_int_equal(fx_run(f, GEN_CHECK), 0);
    assert_string_equal(f->diags.data, "");
}

/* pack (which runs generate first) packs the tables that generate writes in the same run: after a
 * translation's edit (the table rewritten) and a locale added (a table new). pack --build-step
 * (which writes nothing) cannot pack a table generate has not written: it fails saying which, and
 * packs it once generate has. */
static void test_l10n_pack_takes_the_tables_its_generate_pass_writes(void **state)
{
    fixture *f = *state;
    free(good_project(f, NULL));
    fx_write("threadlink.json",
             "{ \"domains\": [], \"text\": { \"source\": \"text/en.po\" },\n"
             "  \"content\": [ { \"profile\": \"Text\", \"source_root\": \"generated/text\", \"output\": \"out/Text\",\n"
             "                   \"archive\": \"none\" } ] }\n");
    assert_int_equal(fx_pack(f), 0);
    write_fr(fr_body_edited);
    assert_int_equal(fx_pack(f), 0);
    assert_true(fx_exists("out/Text/assets/fr.tltext"));
    char *de = xasprintf("%s%s", fr_head, fr_body);
    fx_write("text/de.po", de);
    assert_int_equal(fx_pack(f), 0);
    assert_true(fx_exists("out/Text/assets/de.tltext"));
    assert_string_equal(f->diags.data, "");
    fx_write("text/it.po", de);
    free(de);
    pack_options step = {.build_step = true};
    assert_int_equal(fx_pack_with(f, step), 1);
    assert_non_null(strstr(f->diags.data, "error: profile \"Text\": generated/text lacks it.tltext, which the text stage gives "
                                          "now: run threadlink-gen generate\n"));
    assert_false(fx_exists("out/Text/assets/it.tltext"));
    assert_int_equal(fx_generate(f), 0);
    fx_clear(f);
    assert_int_equal(fx_pack_with(f, step), 0);
    assert_true(fx_exists("out/Text/assets/it.tltext"));
}

/* The build step (headers) writes the text header, never the tables: generate writes those where
 * the Text profile packs them (a build system such as Meson could not declare outputs in a
 * folder). A PO file edited since generate makes the build step say which table is stale; check
 * shows a binary table's difference as a line, not its bytes. */
static void test_l10n_build_step_reports_stale_tables(void **state)
{
    fixture *f = *state;
    free(good_project(f, NULL));
    assert_int_equal(fx_run(f, GEN_HEADERS), 0);
    assert_string_equal(f->diags.data, "");
    assert_true(fx_exists("build-out/text.h"));
    assert_false(fx_exists("build-out/text"));
    write_fr(fr_body_edited);
    assert_int_equal(fx_run(f, GEN_HEADERS), 0);
    assert_string_equal(f->diags.data,
        "generated/text/fr.tltext: warning: stale: text/fr.po changed since generate wrote it; the content build packs it as it is: run threadlink-gen generate\n");
    f->summary.len = 0;
    assert_int_equal(fx_run(f, GEN_CHECK), 1);
    buf_putc(&f->summary, '\0');
    assert_non_null(strstr(f->summary.data, "Binary files a/generated/text/fr.tltext and b/generated/text/fr.tltext differ\n"));
    assert_null(memchr(f->summary.data, 0x01, f->summary.len)); /* no placeholder byte of a table */
    f->diags.len = 0;
    f->diags.data[0] = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_int_equal(fx_run(f, GEN_HEADERS), 0);
    assert_string_equal(f->diags.data, "");
    /* A table generate has not written yet (a translation just added, before generate): said so. */
    fx_remove("generated/text/fr.tltext");
    assert_int_equal(fx_run(f, GEN_HEADERS), 0);
    assert_string_equal(f->diags.data,
        "generated/text/fr.tltext: warning: not written yet (generate writes it from text/fr.po, and the content build packs it): run threadlink-gen generate\n");
}

/* A key added to the source PO file (or one removed, or its placeholders changed) gives every
 * table another layout: the tables generate wrote would be refused by the game against the header
 * the build step writes (TL_L10N_LAYOUT_MISMATCH), so the build step fails, once, naming the
 * source, and writes nothing; a translation's edit alone stays a warning about its own PO file. */
static void test_l10n_build_step_refuses_tables_of_other_keys(void **state)
{
    fixture *f = *state;
    free(good_project(f, NULL));
    assert_int_equal(fx_run(f, GEN_HEADERS), 0);
    char *before = fx_snapshot("build-out");
    char *with_key = xasprintf("%s\nmsgctxt \"Bye\"\nmsgid \"Goodbye\"\nmsgstr \"\"\n", en_po);
    fx_write("text/en.po", with_key);
    free(with_key);
    fx_clear(f);
    assert_int_equal(fx_run(f, GEN_HEADERS), 1);
    assert_non_null(strstr(f->diags.data,
                           "text/en.po: error: its keys changed since generate wrote the tables generated/text/en.tltext, "
                           "generated/text/fr.tltext: the game would refuse them (they are built for other keys than the "
                           "text header this build writes): run threadlink-gen generate\n"));
    assert_null(strstr(f->diags.data, "text/fr.po changed"));
    char *after = fx_snapshot("build-out");
    assert_string_equal(after, before);
    free(after);
    free(before);
    assert_int_equal(fx_generate(f), 0);
    fx_clear(f);
    assert_int_equal(fx_run(f, GEN_HEADERS), 0); /* generate wrote them: the build goes on */
    assert_string_equal(f->diags.data, "text/fr.po: warning: no translation of Bye (the source text is shown instead)\n");
}

/* ---- the LocalizedText vault field type ----------------------------------------------------------- */

static void write_vault_project(const char *text_section, const char *data_values)
{
    char *cfg = xasprintf("{ \"domains\": [ { \"name\": \"Vault.Fields\", \"output\": \"vault_fields.h\", \"reserve_zero\": true } ],\n"
                          "  \"vaults\": { \"schemas\": \"vaults\", \"data\": \"vaultdata\" }%s }\n", text_section);
    fx_write("threadlink.json", cfg);
    free(cfg);
    fx_write("injectors/Vault.Fields.User.txt", "Name\nHealth\n");
    fx_write("vaults/Item.vault.json", "{ \"name\": \"Item\", \"fields\": [\n"
                                       "  { \"field\": \"Name\", \"type\": \"LocalizedText\", \"default\": \"Title\" },\n"
                                       "  { \"field\": \"Health\", \"type\": \"Integer\" } ] }\n");
    char *data = xasprintf("{ \"vault\": \"Item\", \"instances\": [\n  { \"name\": \"Sword\", \"values\": %s } ] }\n", data_values);
    fx_write("vaultdata/items.vaultdata.json", data);
    free(data);
    fx_write("text/en.po", en_po);
    write_fr(fr_body);
}

/* A LocalizedText names a key of the text domain: resolved to its value, checked like an
 * AssetRef's asset (did-you-mean, tombstones); without the text stage there is no such domain. */
static void test_l10n_vault_field_errors(void **state)
{
    fixture *f = *state;
    write_vault_project(", \"text\": { \"source\": \"text/en.po\" }", "{ \"Name\": \"Score\" }");
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->diags.data, "");
    char *header = fx_read("generated/vaults/item_vault.h");
    assert_non_null(strstr(header, "tl_vault_localized_text Name; /* LocalizedText, serialised */"));
    assert_non_null(strstr(header, "static inline const char *item_vault_text_Name(const item_vault *v, tl_vault_text_fn text, void *ctx)"));
    free(header);
    f->diags.len = 0;
    f->diags.data[0] = 0;
    char *snap = fx_snapshot("generated");
    write_vault_project(", \"text\": { \"source\": \"text/en.po\" }", "{ \"Name\": \"Scroe\" }");
    fx_expect_failure(f, snap,
        "vaultdata/items.vaultdata.json:2:34: error: instances[0].values.Name: \"Scroe\" is not a text key in Text.Keys (closest: Score, Title, Left)\n");
    f->diags.len = 0;
    f->diags.data[0] = 0;
    snap = fx_snapshot("generated");
    write_vault_project("", "{ \"Name\": \"Score\" }"); /* no "text": its domain's manifest is left over */
    fx_expect_failure(f, snap,
        "generated/Text.Keys.manifest.json: warning: no domain 'Text.Keys' is declared: to retire the domain, delete this manifest (diff then reports the domain as removed); else declare it again\n"
        "vaults/Item.vault.json:2:58: error: fields[0].catalog: no domain is named \"Text.Keys\" (closest: Vault.Fields) (a LocalizedText's keys are the text stage's domain: declare threadlink.json's \"text\")\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_l10n_plural_rules_agree_with_c),
        cmocka_unit_test_setup_teardown(test_l10n_errors_in_a_translation, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_errors_of_the_lexer, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_errors_of_keywords_given_again, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_errors_of_plural_rules, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_key_functions_clashing_with_the_keys_header, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_files_that_are_no_locale_are_said, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_errors_in_the_source, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_errors_in_placeholders, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_plural_forms_of_a_translation, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_missing_translation_warns_by_default, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_missing_translation_is_an_error_when_configured, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_regional_locale_falls_back_to_its_parent, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_errors_in_the_config, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_removed_key_is_a_tombstone, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_tables_pack_as_content, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_build_step_reports_stale_tables, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_pack_takes_the_tables_its_generate_pass_writes, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_build_step_refuses_tables_of_other_keys, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_l10n_vault_field_errors, fixture_setup, fixture_teardown),
    };
    return cmocka_run_group_tests_name("l10n-gen", tests, NULL, NULL);
}
