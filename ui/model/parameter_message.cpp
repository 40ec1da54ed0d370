// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/parameter_message.h"

#include "methods/registry.h"
#include "model/scenario_model.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace posatlas::ui {

namespace {

struct ParameterMessage {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::ParameterMessage)
};

const Field* fieldFor(const std::string& key, const Scenario& s)
{
    for (const Field& f : descriptor(s.method).fields)
        if (f.key == key)
            return &f;
    if (const Field* f = common_field(key))
        return f;
    for (const Field* f : all_fields())
        if (f->key == key)
            return f;
    return nullptr;
}

} // namespace

QString allowedText(const std::string& allowed)
{
    const QString a = QString::fromStdString(allowed);
    QRegularExpressionMatch m;
    const auto match = [&](const char* pattern) {
        m = QRegularExpression(QRegularExpression::anchoredPattern(QLatin1String(pattern))).match(a);
        return m.hasMatch();
    };
    if (match(R"(an integer in \[(\S+), (\S+)\])"))
        return ParameterMessage::tr("an integer in [%1, %2]").arg(m.captured(1), m.captured(2));
    if (match(R"(an even integer in \[(\S+), (\S+)\])"))
        return ParameterMessage::tr("an even integer in [%1, %2]").arg(m.captured(1), m.captured(2));
    if (match(R"(>= (\S+) and <= (\S+))"))
        return ParameterMessage::tr(">= %1 and <= %2").arg(m.captured(1), m.captured(2));
    if (match(R"(> (\S+) and <= (\S+))"))
        return ParameterMessage::tr("> %1 and <= %2").arg(m.captured(1), m.captured(2));
    if (match(R"(one of (\S+) for (\S+))"))
        return ParameterMessage::tr("one of %1 for %2").arg(m.captured(1), m.captured(2));
    if (match(R"(one of (\S+))"))
        return ParameterMessage::tr("one of %1").arg(m.captured(1));
    if (match(R"(finite)"))
        return ParameterMessage::tr("finite");
    if (match(R"(finite numbers)"))
        return ParameterMessage::tr("finite numbers");
    if (match(R"(at most (\d+) \((.+): (\d+) MiB would exceed the (\d+) MiB memory budget\))"))
        return ParameterMessage::tr("at most %1 (%2: %3 MiB would exceed the %4 MiB memory budget)")
            .arg(m.captured(1), m.captured(2), m.captured(3), m.captured(4));
    if (match(R"(small enough that the matrix \((\d+) x (\d+)\) has at most (\d+) elements)"))
        return ParameterMessage::tr("small enough that the matrix (%1 x %2) has at most %3 elements")
            .arg(m.captured(1), m.captured(2), m.captured(3));
    // The lab's sweep (lab/lab_sweep.h).
    if (match(R"(increasing integers in \[(\d+), (\d+)\])"))
        return ParameterMessage::tr("increasing integers in [%1, %2]").arg(m.captured(1), m.captured(2));
    if (match(R"(a comma-separated list of distinct (.+))"))
        return ParameterMessage::tr("a comma-separated list of distinct %1").arg(m.captured(1));
    if (a == QLatin1String("a new folder, an empty folder or a sweep's folder"))
        return ParameterMessage::tr("a new folder, an empty folder or a sweep's folder");
    if (match(
            R"(a sweep folder whose runs were trained with these settings \((\S+) seed (\d+) was trained with )"
            R"(others: see its config.json; choose another folder, or remove that run to train it again\))"))
        return ParameterMessage::tr(
                   "a sweep folder whose runs were trained with these settings (%1 seed %2 was "
                   "trained with others: see its config.json; choose another folder, or remove "
                   "that run to train it again)")
            .arg(m.captured(1), m.captured(2));
    if (match(R"(a sentence of at most (\d+) tokens)"))
        return ParameterMessage::tr("a sentence of at most %1 tokens").arg(m.captured(1));
    return a;
}

QString parameterErrorText(const ParameterError& error, const Scenario& scenario)
{
    const QString key = QString::fromStdString(error.parameter());
    const Field* f = fieldFor(error.parameter(), scenario);
    const QString name = f && f->label && *f->label
                             ? ParameterMessage::tr("%1 (%2)", "a parameter: its label, then its key")
                                   .arg(paramText(f->label), key)
                             : key;
    return ParameterMessage::tr("%1 must be %2 (got %3)")
        .arg(name, allowedText(error.allowed()), QString::fromStdString(error.got()));
}

} // namespace posatlas::ui
