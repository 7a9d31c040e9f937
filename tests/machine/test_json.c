/* The JSON writer every producer shares (machine/json.h): escaping,
 * layout, numbers, and the errors it remembers. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/errors.h>

#include "json.h"

struct doc {
    struct sgl__json j;
    FILE *f;
    char *text;
    size_t len;
};

static void doc_open(struct doc *d, unsigned lines)
{
    d->text = NULL;
    d->f = open_memstream(&d->text, &d->len);
    cr_assert_not_null(d->f);
    sgl__json_init(&d->j, d->f, lines);
}

/* Finish the document, expect @status, and return its text (free it). */
static char *doc_close(struct doc *d, int status)
{
    cr_expect_eq(sgl__json_finish(&d->j), status);
    fclose(d->f);
    return d->text;
}

/* The text of one top-level string. */
static char *string_doc(const char *s)
{
    struct doc d;
    doc_open(&d, 0);
    sgl__json_string(&d.j, NULL, s);
    return doc_close(&d, SGL_OK);
}

static void assert_string(const char *in, const char *want)
{
    char *t = string_doc(in);
    cr_expect_str_eq(t, want);
    free(t);
}

Test(json, escapes_quotes_backslashes_and_controls)
{
    assert_string("a\"b\\c", "\"a\\\"b\\\\c\"\n");
    assert_string("tab\there\nnl\x01\x1f", "\"tab\\u0009here\\u000anl"
                                           "\\u0001\\u001f\"\n");
    assert_string("", "\"\"\n");
    /* DEL and '/' need no escape. */
    assert_string("/\x7f", "\"/\x7f\"\n");
}

Test(json, passes_valid_utf8_and_replaces_invalid_bytes)
{
    /* e acute, euro sign, an emoji: 2, 3 and 4 bytes. */
    assert_string("\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
                  "\"\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"\n");
    /* A stray continuation byte, a byte never in UTF-8, an overlong '/',
     * a surrogate, a sequence cut short by the end and by another
     * character: each bad byte becomes U+FFFD. */
    assert_string("\x80", "\"\\ufffd\"\n");
    assert_string("a\xffz", "\"a\\ufffdz\"\n");
    assert_string("\xc0\xaf", "\"\\ufffd\\ufffd\"\n");
    assert_string("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"\n");
    assert_string("\xe2\x82", "\"\\ufffd\\ufffd\"\n");
    assert_string("\xe2x", "\"\\ufffdx\"\n");
    assert_string("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"\n");
}

Test(json, null_string_is_null)
{
    assert_string(NULL, "null\n");
}

Test(json, nests_and_lays_out)
{
    struct doc d;
    doc_open(&d, 1);
    sgl__json_begin_object(&d.j, NULL);
    sgl__json_string(&d.j, "name", "x");
    sgl__json_begin_array(&d.j, "values");
    sgl__json_int(&d.j, NULL, -3);
    sgl__json_uint(&d.j, NULL, 18446744073709551615u);
    sgl__json_bool(&d.j, NULL, 1);
    sgl__json_null(&d.j, NULL);
    sgl__json_end_array(&d.j);
    sgl__json_begin_array(&d.j, "items");
    sgl__json_begin_object(&d.j, NULL);
    sgl__json_bool(&d.j, "ok", 0);
    sgl__json_begin_array(&d.j, "inner");
    sgl__json_begin_array(&d.j, NULL);
    sgl__json_end_array(&d.j);
    sgl__json_end_array(&d.j);
    sgl__json_end_object(&d.j);
    sgl__json_begin_object(&d.j, NULL);
    sgl__json_end_object(&d.j);
    sgl__json_end_array(&d.j);
    sgl__json_begin_object(&d.j, "empty");
    sgl__json_end_object(&d.j);
    sgl__json_end_object(&d.j);
    char *t = doc_close(&d, SGL_OK);
    cr_expect_str_eq(t, "{\n"
                        "  \"name\": \"x\",\n"
                        "  \"values\": [-3, 18446744073709551615, true, "
                        "null],\n"
                        "  \"items\": [\n"
                        "    {\"ok\": false, \"inner\": [\n"
                        "      []\n"
                        "    ]},\n"
                        "    {}\n"
                        "  ],\n"
                        "  \"empty\": {}\n"
                        "}\n");
    free(t);
}

Test(json, numbers_round_trip_in_the_fewest_digits)
{
    /* NULL: any text that reads back exactly. */
    const double v[] = {0.1,          2.3e-05, 1.0 / 3,
                        -0.0,         1e300,   DBL_MIN,
                        DBL_TRUE_MIN, DBL_MAX, 123456789012345678.0,
                        100000000};
    const char *want[] = {"0.1", "2.3e-05", NULL, "-0", "1e+300",
                          NULL,  NULL,      NULL, NULL, "100000000"};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        struct doc d;
        doc_open(&d, 0);
        sgl__json_number(&d.j, NULL, v[i]);
        char *t = doc_close(&d, SGL_OK);
        cr_expect_eq(strtod(t, NULL), v[i], "%.17g written as %s", v[i], t);
        cr_expect_eq(signbit(strtod(t, NULL)), signbit(v[i]));
        if (want[i])
            cr_expect_eq(strncmp(t, want[i], strlen(want[i])), 0,
                         "%.17g written as %s, want %s", v[i], t, want[i]);
        free(t);
    }
}

Test(json, non_finite_numbers_are_null)
{
    struct doc d;
    doc_open(&d, 0);
    sgl__json_begin_array(&d.j, NULL);
    sgl__json_number(&d.j, NULL, NAN);
    sgl__json_number(&d.j, NULL, INFINITY);
    sgl__json_number(&d.j, NULL, -INFINITY);
    sgl__json_end_array(&d.j);
    char *t = doc_close(&d, SGL_OK);
    cr_expect_str_eq(t, "[null, null, null]\n");
    free(t);
}

Test(json, write_error_is_remembered)
{
    FILE *f = fopen("/dev/full", "w");
    cr_assert_not_null(f);
    struct sgl__json j;
    sgl__json_init(&j, f, 0);
    sgl__json_begin_array(&j, NULL);
    /* More than any stdio buffer, so that a write fails before the end. */
    for (int i = 0; i < 100000; i++)
        sgl__json_string(&j, NULL, "0123456789");
    cr_expect_eq(j.status, SGL_EIO);
    sgl__json_end_array(&j);
    cr_expect_eq(sgl__json_finish(&j), SGL_EIO);
    fclose(f);

    /* A failure only the final flush sees. */
    f = fopen("/dev/full", "w");
    cr_assert_not_null(f);
    sgl__json_init(&j, f, 0);
    sgl__json_bool(&j, NULL, 1);
    cr_expect_eq(sgl__json_finish(&j), SGL_EIO);
    fclose(f);
}

/* Each misuse is reported, and nothing after it is written. */
Test(json, misuse_is_reported)
{
    struct doc d;
    doc_open(&d, 0);
    sgl__json_begin_array(&d.j, NULL);
    sgl__json_number(&d.j, "key", 1); /* a key in an array */
    sgl__json_number(&d.j, NULL, 2);
    sgl__json_end_array(&d.j);
    free(doc_close(&d, SGL_EINVAL));

    doc_open(&d, 0);
    sgl__json_begin_object(&d.j, NULL);
    sgl__json_number(&d.j, NULL, 1); /* no key in an object */
    char *t = doc_close(&d, SGL_EINVAL);
    cr_expect_str_eq(t, "{");
    free(t);

    doc_open(&d, 0);
    sgl__json_begin_object(&d.j, NULL); /* never closed */
    free(doc_close(&d, SGL_EINVAL));

    doc_open(&d, 0);
    sgl__json_begin_object(&d.j, NULL);
    sgl__json_end_array(&d.j); /* the wrong end */
    free(doc_close(&d, SGL_EINVAL));

    doc_open(&d, 0);
    sgl__json_null(&d.j, NULL);
    sgl__json_null(&d.j, NULL); /* two documents in one */
    free(doc_close(&d, SGL_EINVAL));

    doc_open(&d, 0); /* nothing at all */
    free(doc_close(&d, SGL_EINVAL));

    doc_open(&d, 0);
    for (int i = 0; i <= SGL__JSON_MAX_NEST; i++)
        sgl__json_begin_array(&d.j, NULL);
    cr_expect_eq(d.j.status, SGL_EINVAL);
    free(doc_close(&d, SGL_EINVAL));
}
