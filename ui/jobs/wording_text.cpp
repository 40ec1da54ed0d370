// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/wording_text.h"

#include "jobs/view_job_support.h"
#include "jobs/view_jobs.h"
#include "views/figure_style.h"

#include <QCoreApplication>

namespace posatlas::ui {

namespace {

QString arg_text(const WordingArg& a)
{
    switch (a.kind) {
    case WordingArg::Kind::Integer: return QString::number(a.integer);
    case WordingArg::Kind::Subscript: return view_job_support::subscript(static_cast<int>(a.integer));
    case WordingArg::Kind::Number: return format_number(a.value, a.digits);
    case WordingArg::Kind::Significant: return QString::number(a.value, 'g', a.digits);
    case WordingArg::Kind::Text: return QString::fromStdString(a.text);
    case WordingArg::Kind::Choice:
        return a.field ? choice_caption(*a.field, static_cast<int>(a.integer)) : QString();
    }
    return {};
}

} // namespace

QString wording_text(const Wording& w)
{
    if (w.empty())
        return {};
    QString out = QCoreApplication::translate(w.context, w.text);
    for (const WordingArg& a : w.args)
        out = out.arg(arg_text(a));
    return out;
}

QString wording_text(const std::vector<Wording>& words, const QString& separator)
{
    QStringList parts;
    for (const Wording& w : words)
        if (!w.empty())
            parts << wording_text(w);
    return parts.join(separator);
}

} // namespace posatlas::ui
