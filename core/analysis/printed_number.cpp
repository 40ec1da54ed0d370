// SPDX-License-Identifier: GPL-3.0-or-later
// How a lesson writes a number and when a computed value is that number (analysis/quoted_value.h):
// reading "3.16e-4" with its precision, comparing at that precision, printing a value the same way.
#include "analysis/quoted_value.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

namespace posatlas {

std::optional<PrintedNumber> parse_printed_number(std::string_view text)
{
    PrintedNumber p;
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+'))
        negative = text[i++] == '-';
    const std::size_t digits = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
        ++i;
    if (i == digits)
        return std::nullopt;
    if (i < text.size() && text[i] == '.') {
        const std::size_t point = ++i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
            ++i;
        p.decimals = static_cast<int>(i - point);
        if (p.decimals == 0)
            return std::nullopt;
    }
    const std::string mantissa(
        text.substr(negative || text[0] == '+' ? 1 : 0, i - (negative || text[0] == '+' ? 1 : 0)));
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        const char* first = text.data() + i + 1;
        const auto [end, ec] = std::from_chars(first, text.data() + text.size(), p.exponent);
        if (ec != std::errc() || end == first)
            return std::nullopt;
        i = static_cast<std::size_t>(end - text.data());
    }
    if (i != text.size())
        return std::nullopt;
    double m = 0.0;
    std::from_chars(mantissa.data(), mantissa.data() + mantissa.size(), m);
    p.value = (negative ? -m : m) * std::pow(10.0, p.exponent);
    p.half_unit = 0.5 * std::pow(10.0, p.exponent - p.decimals);
    return p;
}

bool printed_number_matches(const PrintedNumber& printed, double value)
{
    return std::isfinite(value) &&
           std::fabs(value - printed.value) <= printed.half_unit * (1 + 1e-9) + 1e-12 * std::fabs(value);
}

std::string print_like(const PrintedNumber& like, double value)
{
    char buf[64];
    if (like.exponent != 0) {
        // Keep the printed exponent when the value still fits it (3.16e-4), else the value's own.
        int e = like.exponent;
        double m = value / std::pow(10.0, e);
        if (std::fabs(m) >= 10.0 || (m != 0.0 && std::fabs(m) < 1.0)) {
            e = static_cast<int>(std::floor(std::log10(std::fabs(value))));
            m = value / std::pow(10.0, e);
        }
        std::snprintf(buf, sizeof buf, "%.*fe%d", like.decimals, m, e);
        return buf;
    }
    std::snprintf(buf, sizeof buf, "%.*f", like.decimals, value);
    std::string s = buf;
    if (s == "-0" || (s.rfind("-0.", 0) == 0 && s.find_first_not_of("-0.") == std::string::npos))
        s.erase(0, 1); // no "-0.000"
    return s;
}

} // namespace posatlas
