// SPDX-License-Identifier: GPL-3.0-or-later
// The identity of a positional-encoding method and of the matrices it offers. Both are stable
// lowercase ids ("rope", "transformer-xl"; "logits", "cope-gates") used by the command line, presets
// and session files; what a method *is* (its parameters, kernels, kinds, captions) lives in its
// MethodDescriptor (registry.h), found by this id.
#pragma once

#include <cstddef>
#include <string_view>

namespace posatlas {

class Method
{
public:
    constexpr Method() : m_id("rope") {}
    // From a string literal only, so that the id can never dangle. An id read at run time (a file, the
    // command line) becomes a Method through parse_method() (registry.h), which returns the registry's.
    template <std::size_t N> consteval explicit Method(const char (&id)[N]) : m_id(id, N - 1) {}
    constexpr std::string_view id() const { return m_id; }
    friend constexpr bool operator==(Method a, Method b) { return a.m_id == b.m_id; }
    friend constexpr bool operator<(Method a, Method b) { return a.m_id < b.m_id; }

    // The methods of the original set, by name, for code that is about one of them specifically (the
    // rotation view is about RoPE). A method added later names itself in its own folder.
    static const Method Sinusoidal, Learned, Shaw, TransformerXL, T5, DeBERTa, RoPE, ALiBi, CoPE;

private:
    std::string_view m_id; // a string literal: ids are compile-time constants
};

inline constexpr Method Method::Sinusoidal{"sinusoidal"};
inline constexpr Method Method::Learned{"learned"};
inline constexpr Method Method::Shaw{"shaw"};
inline constexpr Method Method::TransformerXL{"transformer-xl"};
inline constexpr Method Method::T5{"t5"};
inline constexpr Method Method::DeBERTa{"deberta"};
inline constexpr Method Method::RoPE{"rope"};
inline constexpr Method Method::ALiBi{"alibi"};
inline constexpr Method Method::CoPE{"cope"};

// What a heatmap shows. The common kinds are named here; a method with kinds of its own (CoPE's
// contextual positions) declares them beside its descriptor.
class MatrixKind
{
public:
    constexpr MatrixKind() : m_id("logits") {}
    // From a string literal only (see Method); an id read at run time goes through the kinds of a
    // method's descriptor (MethodDescriptor::kind).
    template <std::size_t N> consteval explicit MatrixKind(const char (&id)[N]) : m_id(id, N - 1) {}
    constexpr std::string_view id() const { return m_id; }
    friend constexpr bool operator==(MatrixKind a, MatrixKind b) { return a.m_id == b.m_id; }
    friend constexpr bool operator<(MatrixKind a, MatrixKind b) { return a.m_id < b.m_id; }

    static const MatrixKind Logits;   // attention logits, any method
    static const MatrixKind Weights;  // softmax of each row of the logits: every method with logits
    static const MatrixKind Encoding; // absolute encodings: positions x dimensions
    static const MatrixKind Bias;     // the additive positional bias alone
    static const MatrixKind Buckets;  // relative-position bucket (or clipped) index

private:
    std::string_view m_id; // a string literal
};

inline constexpr MatrixKind MatrixKind::Logits{"logits"};
inline constexpr MatrixKind MatrixKind::Weights{"weights"};
inline constexpr MatrixKind MatrixKind::Encoding{"encoding"};
inline constexpr MatrixKind MatrixKind::Bias{"bias"};
inline constexpr MatrixKind MatrixKind::Buckets{"buckets"};

} // namespace posatlas

// Marks a user-visible source text for translation without Qt: lupdate extracts the text, the GUI
// translates it with QCoreApplication::translate(context, text). The core stays Qt-free.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(context, text) text
#endif
