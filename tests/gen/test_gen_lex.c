/* The injector lexer: what becomes an identifier, and the exact diagnostics for bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/diag.h"
#include "core/lex_injector.h"

typedef struct lexed {
    buf names;  /* "name@line:col|" for each identifier */
    buf diags;
    bool ok;
} lexed;

static void on_line(void *ctx, const injector_line *line)
{
    lexed *l = ctx;
    buf_put(&l->names, line->name, line->name_len);
    buf_printf(&l->names, "@%u:%u", line->loc.line, line->loc.col);
    if (line->signature) buf_printf(&l->names, "%.*s", (int)line->signature_len, line->signature);
    if (line->rename_name) {
        buf_puts(&l->names, "<-");
        if (line->rename_scope) buf_printf(&l->names, "%.*s.", (int)line->rename_scope_len, line->rename_scope);
        buf_printf(&l->names, "%.*s@%u:%u", (int)line->rename_name_len, line->rename_name, line->rename_loc.line, line->rename_loc.col);
    }
    buf_putc(&l->names, '|');
}

static void capture(void *ctx, diag_level level, src_loc loc, const char *message)
{
    lexed *l = ctx;
    diag_format(&l->diags, level, loc, message);
    buf_putc(&l->diags, '\n');
}

static lexed lex_bytes(const char *data, size_t len, bool signatures)
{
    lexed l = {0};
    buf_cstr(&l.names);
    buf_cstr(&l.diags);
    arena a = {0};
    buf input = {0};
    buf_put(&input, data, len); /* adds the NUL sentinel */
    diag_sink prev = diag_set_sink((diag_sink){capture, &l});
    l.ok = lex_injector("inj.txt", input.data, len, signatures, &a, on_line, &l);
    diag_set_sink(prev);
    /* Names live in the arena: copy what we report before freeing it. */
    arena_free(&a);
    buf_free(&input);
    return l;
}

#define LEX(s) lex_bytes(s, sizeof(s) - 1, false)

static void check(lexed l, const char *names, const char *diags)
{
    assert_string_equal(l.names.data, names);
    assert_string_equal(l.diags.data, diags);
    assert_int_equal(l.ok, diags[0] == 0 || strstr(diags, "error:") == NULL);
    buf_free(&l.names);
    buf_free(&l.diags);
}

static void test_lex_comments_blanks_and_trimming(void **state)
{
    (void)state;
    check(LEX("// comment\n/// doc comment\n\n   \t\n  Alpha  \n\tBeta\t\r\nGamma"),
          "Alpha@5:3|Beta@6:2|Gamma@7:1|", "");
}

static void test_lex_comment_after_an_entry(void **state)
{
    (void)state;
    /* A comment after an entry is not part of it: "Health // hp" is Health, not Health____hp. */
    check(LEX("Health // hit points\nMana//x\nHello World\t// two words\n\xC3\xA9lan // accent\nA/B\n"),
          "Health@1:1|Mana@2:1|Hello_World@3:1|_lan@4:1|A_B@5:1|", "");
    static const char input[] = "OnSceneLoaded(const scene_load *)  // listeners: f(ctx, a0)\n"
                                "OnInteract() -> bool // one provider\nOnPlain // none\n";
    check(lex_bytes(input, sizeof input - 1, true),
          "OnSceneLoaded@1:1(const scene_load *)|OnInteract@2:1() -> bool|OnPlain@3:1|", "");
}

static void test_lex_merge_conflict_markers(void **state)
{
    (void)state;
    check(LEX("Alpha\n<<<<<<< HEAD\nBeta\n=======\nGamma\n>>>>>>> topic\n"), "Alpha@1:1|Beta@3:1|Gamma@5:1|",
          "inj.txt:2:1: error: a merge conflict marker: resolve the conflict first (keep the entries of both sides)\n"
          "inj.txt:4:1: error: a merge conflict marker: resolve the conflict first (keep the entries of both sides)\n"
          "inj.txt:6:1: error: a merge conflict marker: resolve the conflict first (keep the entries of both sides)\n");
}

static void test_lex_substitutes_every_other_code_point(void **state)
{
    (void)state;
    check(LEX("Asunci\xC3\xB3n\ndon't\nHello World\nx\xE2\x82\xAC\xF0\x9F\x98\x80y\n"),
          "Asunci_n@1:1|don_t@2:1|Hello_World@3:1|x__y@4:1|", "");
}

static void test_lex_unicode_letter_may_start(void **state)
{
    (void)state;
    /* é (Ll), Ω (Lu), 中 (Lo): letters; the first code point becomes '_' in the C name. */
    check(LEX("\xC3\xA9lan\n\xCE\xA9mega\n\xE4\xB8\xADwen\n"), "_lan@1:1|_mega@2:1|_wen@3:1|", "");
}

static void test_lex_bom_is_skipped(void **state)
{
    (void)state;
    check(LEX("\xEF\xBB\xBF" "Alpha\n"), "Alpha@1:1|", "");
}

static void test_lex_rejects_non_letter_start(void **state)
{
    (void)state;
    check(LEX("Good\n9lives\n_under\n  -dash\n\xE2\x82\xACuro\nAfter\n"),
          "Good@1:1|After@6:1|",
          "inj.txt:2:1: error: identifier must start with a letter, not '9'\n"
          "inj.txt:3:1: error: identifier must start with a letter, not '_'\n"
          "inj.txt:4:3: error: identifier must start with a letter, not '-'\n"
          "inj.txt:5:1: error: identifier must start with a letter, not '\xE2\x82\xAC'\n");
}

static void test_lex_rejects_invalid_utf8(void **state)
{
    (void)state;
    /* An overlong '/', a UTF-16 surrogate, a lone continuation byte, a truncated sequence. */
    check(LEX("ok\nA\xC0\xAF\nB\xED\xA0\x80x\nC\x80\nD\xE2\x82\n"),
          "ok@1:1|",
          "inj.txt:2:2: error: invalid UTF-8 (byte 0xC0)\n"
          "inj.txt:3:2: error: invalid UTF-8 (byte 0xED)\n"
          "inj.txt:4:2: error: invalid UTF-8 (byte 0x80)\n"
          "inj.txt:5:2: error: invalid UTF-8 (byte 0xE2)\n");
}

static void test_lex_rejects_nul(void **state)
{
    (void)state;
    static const char input[] = "Alpha\nBe\0ta\n\0\nGamma\n";
    check(lex_bytes(input, sizeof input - 1, false), "Alpha@1:1|Gamma@4:1|",
          "inj.txt:2:3: error: NUL byte in injector file\n"
          "inj.txt:3:1: error: NUL byte in injector file\n");
}

static void test_lex_signatures_split_at_paren(void **state)
{
    (void)state;
    static const char input[] = "OnSceneLoaded(const scene_load *)  \nOnInteract() -> bool\nOnPlain\n";
    check(lex_bytes(input, sizeof input - 1, true),
          "OnSceneLoaded@1:1(const scene_load *)|OnInteract@2:1() -> bool|OnPlain@3:1|", "");
    /* Without signatures a parenthesis is just another substituted code point. */
    check(LEX("On(x)\n"), "On_x_@1:1|", "");
}

/* "New <- Old": the entry New is the renamed form of Old (which keeps its value). The old name is
 * lexed like any identifier; "Scope.Old" names an entry of another injector (a recorded rescope):
 * an ASCII word right before a '.' that a letter follows. "Mr. Smith" and "v1.2" are names. */
static void test_lex_rename_records_the_old_name(void **state)
{
    (void)state;
    check(LEX("Elixir <- Potion\nBig Sword <- Big Axe // hp\nGamma<-Mod.Gamma\nMr X <- Mr. Smith\nV2 <- v1.2\n"
              "\xC3\xA9t\xC3\xA9 <- \xC3\xA9lan\t\n"),
          "Elixir@1:1<-Potion@1:11|Big_Sword@2:1<-Big_Axe@2:14|Gamma@3:1<-Mod.Gamma@3:8|Mr_X@4:1<-Mr__Smith@4:9|"
          "V2@5:1<-v1_2@5:7|_t_@6:1<-_lan@6:10|", "");
    /* An event keeps its signature after the new name; the arrow ends it. */
    static const char input[] = "OnHit(int) <- OnDamage // c\nOnQuit <- OnExit\nOnAsk() -> bool <- OnQuery\n";
    check(lex_bytes(input, sizeof input - 1, true),
          "OnHit@1:1(int)<-OnDamage@1:15|OnQuit@2:1<-OnExit@2:11|OnAsk@3:1() -> bool<-OnQuery@3:20|", "");
}

static void test_lex_rename_errors(void **state)
{
    (void)state;
    check(LEX("Elixir <-\nTonic <- // c\nA <- B <- C\nD <- 9x\n<- E\nOk <- Fine\n"),
          "Ok@6:1<-Fine@6:7|",
          "inj.txt:1:8: error: '<-' must be followed by the entry's old name (New <- Old)\n"
          "inj.txt:2:7: error: '<-' must be followed by the entry's old name (New <- Old)\n"
          "inj.txt:3:8: error: a second '<-': one rename per line (a chain of renames takes one generate pass each)\n"
          "inj.txt:4:6: error: identifier must start with a letter, not '9'\n"
          "inj.txt:5:1: error: identifier must start with a letter, not '<-'\n");
    static const char input[] = "OnHit <- OnDamage(int)\n";
    check(lex_bytes(input, sizeof input - 1, true), "",
          "inj.txt:1:18: error: the old name takes no signature: write it after the new name (OnHit(...) <- OnDamage)\n");
}

/* Names and signatures are bounded so that every manifest written can be read back (its reader
 * takes strings of up to 4,096 bytes) and generated names stay sane. */
/* '<' or '>' in a name reads as a mistyped arrow: a warning at the character, and the entry is
 * declared as written (a '_' for each); a signature's '->' and a real rename are not warned. */
static void test_lex_warns_of_arrow_like_names(void **state)
{
    (void)state;
    check(LEX("Elixir < Potion\nShield -> Buckler\nA<=B\nGold Coin\nNew <- Old\n"),
          "Elixir___Potion@1:1|Shield____Buckler@2:1|A__B@3:1|Gold_Coin@4:1|New@5:1<-Old@5:8|",
          "inj.txt:1:8: warning: '<' in the name 'Elixir < Potion': a rename is written 'New <- Old'; this line declares Elixir___Potion\n"
          "inj.txt:2:9: warning: '>' in the name 'Shield -> Buckler': a rename is written 'New <- Old'; this line declares Shield____Buckler\n"
          "inj.txt:3:2: warning: '<' in the name 'A<=B': a rename is written 'New <- Old'; this line declares A__B\n");
    static const char input[] = "OnInteract() -> bool\n";
    check(lex_bytes(input, sizeof input - 1, true), "OnInteract@1:1() -> bool|", "");
}

static void test_lex_length_limits(void **state)
{
    (void)state;
    buf in = {0};
    for (int i = 0; i < INJECTOR_MAX_NAME; i++) buf_putc(&in, 'a');
    buf_puts(&in, "\nb");
    for (int i = 0; i < INJECTOR_MAX_NAME; i++) buf_putc(&in, 'b');
    buf_puts(&in, "\nOnX(");
    for (int i = 0; i < INJECTOR_MAX_SIGNATURE; i++) buf_putc(&in, 'i');
    buf_puts(&in, ")\nOnY(int)\n");
    lexed l = lex_bytes(in.data, in.len, true);
    assert_string_equal(l.diags.data,
                        "inj.txt:2:1: error: identifier is 256 characters long: at most 255 (it becomes part of C names and of the manifest key)\n"
                        "inj.txt:3:4: error: signature is 1026 bytes long: at most 1024\n");
    assert_false(l.ok);
    assert_non_null(strstr(l.names.data, "@1:1|OnY@4:1(int)|")); /* 255 is fine, and the lines after */
    buf_free(&l.names);
    buf_free(&l.diags);
    buf_free(&in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lex_comments_blanks_and_trimming),
        cmocka_unit_test(test_lex_comment_after_an_entry),
        cmocka_unit_test(test_lex_merge_conflict_markers),
        cmocka_unit_test(test_lex_substitutes_every_other_code_point),
        cmocka_unit_test(test_lex_unicode_letter_may_start),
        cmocka_unit_test(test_lex_bom_is_skipped),
        cmocka_unit_test(test_lex_rejects_non_letter_start),
        cmocka_unit_test(test_lex_rejects_invalid_utf8),
        cmocka_unit_test(test_lex_rejects_nul),
        cmocka_unit_test(test_lex_signatures_split_at_paren),
        cmocka_unit_test(test_lex_rename_records_the_old_name),
        cmocka_unit_test(test_lex_rename_errors),
        cmocka_unit_test(test_lex_warns_of_arrow_like_names),
        cmocka_unit_test(test_lex_length_limits),
    };
    return cmocka_run_group_tests_name("gen_lex", tests, NULL, NULL);
}
