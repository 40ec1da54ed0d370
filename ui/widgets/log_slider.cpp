// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/log_slider.h"

#include <QAbstractSpinBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLineEdit>
#include <QSlider>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace posatlas::ui {

namespace {
constexpr int kLogSteps = 1000; // slider resolution of a log range: 0.007 decades per tick over 7 decades
constexpr int kMaxLinearSteps = 2000;

bool isUndoRedo(const QKeyEvent* key)
{
    const QKeySequence typed(key->keyCombination());
    for (auto standard : {QKeySequence::Undo, QKeySequence::Redo})
        for (const QKeySequence& seq : QKeySequence::keyBindings(standard))
            if (seq == typed)
                return true;
    return typed == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z);
}

} // namespace

// QDoubleSpinBox refuses a keystroke that would leave the range, so typing 1000000 into a box whose
// maximum is 100000 silently drops the last digit. This one accepts any number while typing and clamps
// on commit, saying so.
class ClampingSpinBox : public QDoubleSpinBox
{
public:
    explicit ClampingSpinBox(LogSlider* owner) : QDoubleSpinBox(owner), m_owner(owner)
    {
        // One number format in the GUI: a decimal point and no group separators in every locale.
        QLocale c = QLocale::c();
        c.setNumberOptions(QLocale::OmitGroupSeparator | QLocale::RejectGroupSeparator);
        setLocale(c);
    }

    QValidator::State validate(QString& input, int& pos) const override
    {
        const QValidator::State state = QDoubleSpinBox::validate(input, pos);
        if (state != QValidator::Invalid)
            return state;
        bool ok = false;
        const double v = locale().toDouble(stripped(input), &ok);
        return ok && std::isfinite(v) ? QValidator::Intermediate : QValidator::Invalid;
    }

    void fixup(QString& input) const override
    {
        bool ok = false;
        const double v = locale().toDouble(stripped(input), &ok);
        if (ok && std::isfinite(v) && (v > maximum() || v < minimum())) {
            const double limit = v > maximum() ? maximum() : minimum();
            input = prefix() + textFromValue(limit) + suffix();
            const QString message = v > maximum() ? LogSlider::tr("%1 is above the maximum %2: set to %2")
                                                        .arg(textFromValue(v), textFromValue(maximum()))
                                                  : LogSlider::tr("%1 is below the minimum %2: set to %2")
                                                        .arg(textFromValue(v), textFromValue(minimum()));
            // Queued: fixup runs inside the spin box's commit; the note follows once the value is in.
            QMetaObject::invokeMethod(
                m_owner, [owner = m_owner, message] { emit owner->valueClamped(message); },
                Qt::QueuedConnection);
            return;
        }
        QDoubleSpinBox::fixup(input);
    }

protected:
    bool event(QEvent* e) override
    {
        // The line edit would take Ctrl+Z for its own typing history: leave it to Edit > Undo.
        if (e->type() == QEvent::ShortcutOverride && isUndoRedo(static_cast<QKeyEvent*>(e))) {
            e->ignore();
            return false;
        }
        return QDoubleSpinBox::event(e);
    }

private:
    QString stripped(QString text) const
    {
        if (!prefix().isEmpty() && text.startsWith(prefix()))
            text.remove(0, prefix().size());
        if (!suffix().isEmpty() && text.endsWith(suffix()))
            text.chop(suffix().size());
        return text.trimmed();
    }

    LogSlider* m_owner;
};

LogSlider::LogSlider(const Range& range, QWidget* parent)
    : QWidget(parent), m_range(range), m_slider(new QSlider(Qt::Horizontal, this)),
      m_spin(new ClampingSpinBox(this))
{
    if (m_range.log_scale) {
        m_steps = kLogSteps;
    } else if (m_range.integer && (m_range.max - m_range.min) / m_range.step <= kMaxLinearSteps) {
        m_steps = std::max(1, static_cast<int>(std::lround((m_range.max - m_range.min) / m_range.step)));
    } else {
        m_steps = kLogSteps;
    }
    m_slider->setRange(0, m_steps);
    m_slider->setSingleStep(std::max(1, m_steps / 100));
    m_slider->setPageStep(std::max(1, m_steps / 10));
    m_slider->setFocusPolicy(Qt::StrongFocus);
    m_slider->setMinimumWidth(90);

    m_spin->setRange(m_range.min, m_range.max);
    m_spin->setDecimals(m_range.integer ? 0 : m_range.decimals);
    m_spin->setSingleStep(m_range.step);
    if (m_range.log_scale)
        m_spin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    m_spin->setKeyboardTracking(false); // commit on Enter / focus out, not on every digit typed
    m_spin->setAccelerated(true);
    m_spin->setMinimumWidth(m_spin->fontMetrics().horizontalAdvance(QStringLiteral("10000000.00")) + 30);
    m_spin->setAlignment(Qt::AlignRight);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_spin, 0);
    setFocusProxy(m_slider);

    connect(m_slider, &QSlider::valueChanged, this, &LogSlider::onSliderMoved);
    connect(m_slider, &QSlider::sliderPressed, this, &LogSlider::dragStarted);
    connect(m_slider, &QSlider::sliderReleased, this, &LogSlider::dragFinished);
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, &LogSlider::onSpinCommitted);
    connect(this, &LogSlider::valueClamped, this, [this](const QString& message) {
        QToolTip::showText(m_spin->mapToGlobal(QPoint(0, m_spin->height())), message, m_spin);
    });
    setValue(m_range.min);
}

double LogSlider::snap(double value) const
{
    value = std::clamp(value, m_range.min, m_range.max);
    if (m_range.integer) {
        if (!m_range.log_scale && m_range.step > 1.0)
            value = m_range.min + std::round((value - m_range.min) / m_range.step) * m_range.step;
        value = std::round(value);
    }
    return value;
}

int LogSlider::positionForValue(double value) const
{
    value = std::clamp(value, m_range.min, m_range.max);
    if (m_range.log_scale) {
        const bool zeroTick = m_range.min <= 0.0;
        if (zeroTick && value <= 0.0)
            return 0;
        const double lo = std::log10(zeroTick ? std::max(1.0, m_range.min) : m_range.min);
        const double hi = std::log10(m_range.max);
        const int first = zeroTick ? 1 : 0;
        const double t = (std::log10(std::max(value, std::pow(10.0, lo))) - lo) / (hi - lo);
        return first + static_cast<int>(std::lround(t * (m_steps - first)));
    }
    const double t = (value - m_range.min) / (m_range.max - m_range.min);
    return static_cast<int>(std::lround(t * m_steps));
}

double LogSlider::valueForPosition(int position) const
{
    position = std::clamp(position, 0, m_steps);
    if (m_range.log_scale) {
        const bool zeroTick = m_range.min <= 0.0;
        if (zeroTick && position == 0)
            return m_range.min;
        const double lo = std::log10(zeroTick ? std::max(1.0, m_range.min) : m_range.min);
        const double hi = std::log10(m_range.max);
        const int first = zeroTick ? 1 : 0;
        const double t = static_cast<double>(position - first) / (m_steps - first);
        double v = std::pow(10.0, lo + t * (hi - lo));
        // Round to 3 significant digits so dragged values read cleanly (12300, not 12345.678).
        if (!m_range.integer) {
            const double mag = std::pow(10.0, std::floor(std::log10(v)) - 2);
            v = std::round(v / mag) * mag;
        }
        return snap(v);
    }
    return snap(m_range.min + (m_range.max - m_range.min) * position / m_steps);
}

void LogSlider::setValue(double value)
{
    m_updating = true;
    m_value = value;
    m_slider->setValue(positionForValue(value));
    m_spin->setValue(value);
    m_updating = false;
}

void LogSlider::setSpecialValueText(const QString& text)
{
    m_spin->setSpecialValueText(text);
}

void LogSlider::setToolTips(const QString& text)
{
    m_slider->setToolTip(text);
    m_spin->setToolTip(text);
}

void LogSlider::onSliderMoved(int position)
{
    if (m_updating)
        return;
    const double v = valueForPosition(position);
    if (v == m_value)
        return;
    m_value = v;
    m_updating = true;
    m_spin->setValue(v);
    m_updating = false;
    emit valueEdited(v);
}

void LogSlider::onSpinCommitted()
{
    if (m_updating)
        return;
    const double v = snap(m_spin->value());
    if (v == m_value)
        return;
    m_value = v;
    m_updating = true;
    m_slider->setValue(positionForValue(v));
    m_spin->setValue(v);
    m_updating = false;
    emit valueEdited(v);
}

} // namespace posatlas::ui
