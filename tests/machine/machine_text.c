#include "machine_text.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int read_text(const char *text, sgl_machine_t **ret)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    cr_assert_not_null(f);
    int rc = sgl_machine_read(f, "t.sgl", ret);
    fclose(f);
    return rc;
}

sgl_machine_t *machine(const char *text)
{
    sgl_machine_t *m = NULL;
    cr_assert_eq(read_text(text, &m), SGL_OK, "%s", sgl_error_last());
    return m;
}

void expect_near(double got, double want, const char *what)
{
    cr_expect(fabs(got - want) <= 1e-12 * fabs(want),
              "%s: %.17g, expected %.17g", what, got, want);
}
