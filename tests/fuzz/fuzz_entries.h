// SPDX-License-Identifier: GPL-3.0-or-later
// The entry functions of the fuzz targets, shared with the corpus replay test (which is built with any
// compiler): each feeds bytes to one parser the way the program does, and swallows only the errors that
// mean "bad input, reported" (InputFileError and its subclasses, ParameterError) and return their message
// ("" when the input was accepted). Anything else that escapes (another exception type, a crash, a
// sanitizer report) is a bug, and so is a message in the JSON library's words ("[json.exception...").
#pragma once

#include <string>
#include <string_view>

namespace posatlas::fuzz {

// A model's config.json: parse_json_input -> import_model_config -> validate (as --config / File > Open).
std::string model_config(std::string_view bytes);
// A session file: session_from_json (format, version, scenario, views, figure) as `export --session`.
std::string session(std::string_view bytes);
// A learned position table as .csv / as .npy (LearnedTable::parse, the parser behind --table).
std::string learned_csv(std::string_view bytes);
std::string learned_npy(std::string_view bytes);

} // namespace posatlas::fuzz
