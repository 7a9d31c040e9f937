// std::sort peers of bench_local_sort: unsigned keys and 16- and 32-byte
// records by a leading 64-bit key. C linkage for the C benchmark.
#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace {
struct rec16 {
    uint64_t key, pad;
};
struct rec32 {
    uint64_t key, pad[3];
};
} // namespace

extern "C" void bench_std_sort_u64(uint64_t *a, size_t n)
{
    std::sort(a, a + n);
}

extern "C" void bench_std_sort_u32(uint32_t *a, size_t n)
{
    std::sort(a, a + n);
}

extern "C" void bench_std_sort_rec16(void *a, size_t n)
{
    rec16 *r = static_cast<rec16 *>(a);
    std::sort(r, r + n,
              [](const rec16 &x, const rec16 &y) { return x.key < y.key; });
}

extern "C" void bench_std_sort_rec32(void *a, size_t n)
{
    rec32 *r = static_cast<rec32 *>(a);
    std::sort(r, r + n,
              [](const rec32 &x, const rec32 &y) { return x.key < y.key; });
}
