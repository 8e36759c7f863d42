// TextError: bad input in one of kcspec's text formats (configuration, action, scenario), with
// the place it was found. what() is "file:line: message", the form every tool prints it in
// (DESIGN.md "Bad input … gets `file:line: message` and exit status 2").
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace kcspec {

struct TextError : std::runtime_error {
  TextError(std::string_view file_, int line_, std::string message_)
      : std::runtime_error(std::string(file_) + ":" + std::to_string(line_) + ": " + message_),
        file(file_),
        line(line_),
        message(std::move(message_)) {}

  std::string file;
  int line = 0;
  std::string message;
};

}  // namespace kcspec
