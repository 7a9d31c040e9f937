/**
 * @file api.h
 * SGL_API marks the functions of the public API: the library is compiled
 * with hidden visibility, so what it exports is exactly what its headers
 * declare with this marker.
 */
#ifndef SGL_API_H
#define SGL_API_H

#if defined(__GNUC__) || defined(__clang__)
#define SGL_API __attribute__((visibility("default")))
#else
#define SGL_API
#endif

#endif
