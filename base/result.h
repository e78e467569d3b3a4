#pragma once

// The project's one error convention (docs/dev/design.md, Layout):
//   - a function that produces a value or fails returns Result<T, E>;
//   - a function that only succeeds or fails returns std::optional<E>: the error, if any.
// E says what went wrong in words a user can act on (a struct with a code where callers branch
// on the kind, as ovsdb/read_error.h). Nothing returns an empty string, a bool with an
// out-parameter or an empty container to mean "failed", and nothing in the read path throws.

#include <type_traits>
#include <utility>
#include <variant>

namespace ovn_raft {

// A value or an error.
template <typename T, typename E>
class Result {
 public:
  Result(T value)
      : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit, like optional
  Result(E error)                                        // NOLINT
      requires(!std::is_same_v<T, E>)
      : v_(std::in_place_index<1>, std::move(error)) {}
  // The error, spelled out: needed where T and E are the same type.
  static Result Failure(E error) { return Result(std::in_place_index<1>, std::move(error)); }

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<0>(v_); }
  T& value() & { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const E& error() const { return std::get<1>(v_); }

 private:
  Result(std::in_place_index_t<1> tag, E error) : v_(tag, std::move(error)) {}
  std::variant<T, E> v_;
};

}  // namespace ovn_raft
