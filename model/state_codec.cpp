#include "model/state_codec.h"

namespace oc {
namespace {

// Writes or reads the fields of a State in one order, so that Encode and
// Decode cannot disagree: `f(byte&)` for one-byte fields, `wide(uint16&)`
// for versions.
template <class S, class Byte, class Wide>
void VisitFields(S& s, Byte byte, Wide wide) {
  for (auto& e : s.events) {
    byte(e.published);
    byte(e.owner);
    byte(e.token);
    byte(e.lease);
    byte(e.completed_token);
    byte(e.offered);
  }
  for (auto& r : s.relays) {
    byte(r.phase);
    byte(r.event);
    byte(r.token);
  }
  for (auto& i : s.instances) {
    byte(i.phase);
    byte(i.event);
    byte(i.memo);
  }
  for (auto& c : s.group_events) {
    byte(c.ready);
    byte(c.effects);
    byte(c.inbox);
    byte(c.ledger);
    byte(c.sent);
  }
  for (auto& k : s.group_keys) {
    wide(k.version);
    byte(k.fresh);
  }
  auto& b = s.budgets;
  byte(b.premature_expiries);
  byte(b.relay_crashes);
  byte(b.lost_publish_acks);
  byte(b.lost_consumer_acks);
  byte(b.consumer_crashes);
  byte(b.redeliveries);
}

}  // namespace

StateCodec::StateCodec(const State& shape) : shape_(shape) {
  VisitFields(
      shape_, [&](auto&) { size_ += 1; }, [&](auto&) { size_ += 2; });
}

void StateCodec::Encode(const State& s, std::uint8_t* out) const {
  VisitFields(
      s, [&](const auto& field) { *out++ = static_cast<std::uint8_t>(field); },
      [&](const std::uint16_t& v) {
        *out++ = static_cast<std::uint8_t>(v & 0xff);
        *out++ = static_cast<std::uint8_t>(v >> 8);
      });
}

State StateCodec::Decode(const std::uint8_t* in) const {
  State s = shape_;
  VisitFields(
      s,
      [&](auto& field) {
        field = static_cast<std::remove_reference_t<decltype(field)>>(*in++);
      },
      [&](std::uint16_t& v) {
        v = static_cast<std::uint16_t>(in[0] | (in[1] << 8));
        in += 2;
      });
  return s;
}

}  // namespace oc
