// TextError: bad input in one of kcspec's text formats (configuration, action, scenario), with
// the place it was found. what() is "file:line: message", the form every tool prints it in
// (DESIGN.md "Bad input … gets `file:line: message` and exit status 2").
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace kcspec {

// `text` with every control character (C0 but tab, DEL, and the C1 range U+0080–U+009F) written as
// \xNN: a message that quotes its input cannot send escape codes to a terminal.
// The length in bytes of the control character at text[i] — 1 for C0 but tab, and DEL; 2 for a C1
// control in UTF-8 (C2 80 … C2 9F) — or 0 when there is none.
inline std::size_t controlCharacterAt(std::string_view text, std::size_t i) {
  const auto byte = static_cast<unsigned char>(text[i]);
  if ((byte < 0x20 && byte != '\t') || byte == 0x7F) return 1;
  const bool c1 = byte == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                  static_cast<unsigned char>(text[i + 1]) <= 0x9F;
  return c1 ? 2 : 0;
}

inline std::string escapedControls(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t control = controlCharacterAt(text, i);
    if (control == 1) {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    } else if (control == 2) {
      const auto next = static_cast<unsigned char>(text[++i]);
      out += "\\u00";
      out += kHex[next >> 4];
      out += kHex[next & 0xF];
    } else {
      out += text[i];
    }
  }
  return out;
}

struct TextError : std::runtime_error {
  TextError(std::string_view file_, int line_, std::string message_)
      : std::runtime_error(escapedControls(file_) + ":" + std::to_string(line_) + ": " + escapedControls(message_)),
        file(file_),
        line(line_),
        message(escapedControls(message_)) {}

  std::string file;
  int line = 0;
  std::string message;  // control characters escaped
};

}  // namespace kcspec
