/* Helpers the predictor's tests share (test_params): a machine read from
 * text, and a relative comparison for prices computed by hand. */
#ifndef SGL_TEST_MACHINE_TEXT_H
#define SGL_TEST_MACHINE_TEXT_H

#include <sgl/machine.h>

/* sgl_machine_read() of @text, as file "t.sgl" (error messages name it). */
int read_text(const char *text, sgl_machine_t **ret);
/* The machine of @text; the test fails if it does not read. */
sgl_machine_t *machine(const char *text);
/* A Criterion expectation: @got within 1e-12 of @want, relatively. */
void expect_near(double got, double want, const char *what);

#endif
