// SPDX-License-Identifier: GPL-3.0-or-later
// cli_i18n.h for posatlas-lab, without Qt: the translations are those `posatlas lab` handed over
// (lab/lab_messages.h); any other text, and every text when posatlas-lab runs by itself, stays English.
#include "cli_i18n.h"
#include "lab/lab_messages.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <map>

namespace posatlas::cli {

namespace {

std::map<std::string, std::string>& catalogue()
{
    static std::map<std::string, std::string> m;
    return m;
}

} // namespace

void choose_language()
{
    catalogue().clear();
    const char* text = std::getenv(lab::kLabMessagesVariable);
    if (!text)
        return;
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object())
        return;
    for (const auto& [key, value] : j.items())
        if (value.is_string())
            catalogue()[key] = value.get<std::string>();
}

std::string translate(const char* context, const char* source, const char*)
{
    const auto it = catalogue().find(std::string(context) + '\x04' + source);
    return it != catalogue().end() ? it->second : source;
}

std::string parameter_message(const std::string& option, const std::string& allowed, const std::string& got)
{
    return arg(translate("posatlas::ui::ParameterMessage", "%1 must be %2 (got %3)"), {option, allowed, got});
}

} // namespace posatlas::cli
