// An array of plain values kept in blocks of 2^16 that never move: growing
// allocates one more block and copies nothing, so a long array never holds
// its old and new copies at once, and at most one block is unused.

#ifndef OUTBOX_CHECK_EXPLORER_BLOCK_ARRAY_H_
#define OUTBOX_CHECK_EXPLORER_BLOCK_ARRAY_H_

#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

namespace oc::explorer {

template <class T>
class BlockArray {
  static_assert(std::is_trivially_copyable_v<T>, "plain values only");

 public:
  static constexpr int kShift = 16;
  static constexpr std::size_t kPerBlock = std::size_t{1} << kShift;

  std::size_t size() const { return size_; }
  // What it holds: its blocks and their list.
  std::size_t Bytes() const {
    return blocks_.size() * kPerBlock * sizeof(T) +
           blocks_.capacity() * sizeof(blocks_[0]);
  }
  T& operator[](std::size_t i) {
    return blocks_[i >> kShift][i & (kPerBlock - 1)];
  }
  const T& operator[](std::size_t i) const {
    return blocks_[i >> kShift][i & (kPerBlock - 1)];
  }
  void push_back(T value) {
    if (size_ == blocks_.size() * kPerBlock) {
      blocks_.emplace_back(new T[kPerBlock]);
    }
    (*this)[size_++] = value;
  }
  // Grows to n elements, the new ones `fill`. (It never shrinks.)
  void resize(std::size_t n, T fill) {
    while (size_ < n) push_back(fill);
  }

 private:
  std::size_t size_ = 0;
  std::vector<std::unique_ptr<T[]>> blocks_;
};

}  // namespace oc::explorer

#endif  // OUTBOX_CHECK_EXPLORER_BLOCK_ARRAY_H_
