// SPDX-License-Identifier: GPL-3.0-or-later
// A slider with a spin box beside it, for one numeric parameter. Ranges that span decades (a RoPE
// base of 10 .. 10^8, a sequence length of 8 .. 10^6) map the slider to log10(value) so every decade
// gets the same travel; the spin box always shows and accepts the exact value. Both are keyboard
// reachable: arrows step the slider, PageUp/PageDown move a tenth of its range.
//
// The spin box follows the GUI's number policy (a decimal point, no group separators, whatever the
// locale), keeps a typed value above the maximum instead of refusing the last digit, and clamps it to
// the limit on Enter with a visible note naming the limit (valueClamped). Undo / redo shortcuts pass
// through it to the window's Edit menu instead of undoing the typing inside the box.
#pragma once

#include <QWidget>

class QSlider;
class QDoubleSpinBox;

namespace posatlas::ui {

class LogSlider : public QWidget
{
    Q_OBJECT
public:
    struct Range {
        double min = 0.0, max = 1.0;
        bool log_scale = false;
        bool integer = false;
        int decimals = 0;  // spin box decimals (integers: 0)
        double step = 1.0; // linear integer slider step (2 for even dimensions); spin box step
        bool zero_means_unset =
            false; // log scale with min 0: the slider's first tick is 0, shown as special text
    };
    explicit LogSlider(const Range& range, QWidget* parent = nullptr);

    double value() const { return m_value; }
    // Sets the shown value without emitting valueEdited (the model -> widget direction).
    void setValue(double value);
    const Range& range() const { return m_range; }
    void setSpecialValueText(const QString& text);
    void setToolTips(const QString& text);

    QSlider* slider() const { return m_slider; }
    QDoubleSpinBox* spinBox() const { return m_spin; }

    // Slider position <-> value. Public for the tests.
    int positionForValue(double value) const;
    double valueForPosition(int position) const;
    int sliderSteps() const { return m_steps; }

signals:
    // The user changed the value (slider moved, spin box committed).
    void valueEdited(double value);
    // A mouse drag of the slider handle begins / ends (merges the drag into one undo entry).
    void dragStarted();
    void dragFinished();
    // A typed value outside the range was clamped to the limit; `message` names the limit.
    void valueClamped(const QString& message);

private:
    void onSliderMoved(int position);
    void onSpinCommitted();
    double snap(double value) const;

    Range m_range;
    QSlider* m_slider;
    QDoubleSpinBox* m_spin;
    int m_steps = 1000;
    double m_value = 0.0;
    bool m_updating = false; // guard: programmatic updates of one editor must not echo through the other
};

} // namespace posatlas::ui
