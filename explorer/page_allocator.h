// An allocator for large arrays of plain values that every element of is
// written before it is read (the state graph's arrays): memory comes
// straight from the kernel, as an anonymous mapping, and new elements are
// not written when the array grows (resize leaves them as the mapping gave
// them, zero, or as they were last written). So reserving a large array
// costs only address space, and each page is committed by the thread that
// first writes it, rather than by one thread zeroing them all up front.
//
// The mapping asks for no swap reservation (MAP_NORESERVE), so a large
// reserve succeeds where the system overcommits memory; where it does not,
// a reservation it refuses throws std::bad_alloc like any allocation.

#ifndef OUTBOX_CHECK_EXPLORER_PAGE_ALLOCATOR_H_
#define OUTBOX_CHECK_EXPLORER_PAGE_ALLOCATOR_H_

#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace oc::explorer {

template <class T>
class PageAllocator {
 public:
  static_assert(std::is_trivially_copyable_v<T> &&
                    std::is_trivially_destructible_v<T>,
                "elements are left unwritten: plain values only");
  using value_type = T;

  PageAllocator() = default;
  template <class U>
  explicit PageAllocator(const PageAllocator<U>&) {}

  T* allocate(std::size_t n) {
    if (n == 0) return nullptr;
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_alloc();
    void* p = mmap(nullptr, n * sizeof(T), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) {
    if (p != nullptr) munmap(p, n * sizeof(T));
  }

  // A new element without a value is left as it is.
  template <class U>
  void construct(U*) noexcept {}
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  friend bool operator==(const PageAllocator&, const PageAllocator&) {
    return true;
  }
};

// A vector whose memory comes from PageAllocator.
template <class T>
using PageVector = std::vector<T, PageAllocator<T>>;

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_PAGE_ALLOCATOR_H_
