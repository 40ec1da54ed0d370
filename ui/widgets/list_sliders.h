// SPDX-License-Identifier: GPL-3.0-or-later
// The parameter panel's editor of a list field with defaults (Field::list_defaults), such as ALiBi's
// head slopes: a header button that folds the rows away, then one LogSlider per element
// ("Head 1", "Head 2", ...) with a small reset button that puts the element back to its default (the
// paper's slope 2^(-8h/n)), and a "Reset all" button. Each slider edit is one undoable edit through
// ScenarioModel::setListElement; a drag merges into one undo entry.
//
// Many heads (num_heads goes up to 1024) would make the panel a wall of sliders: only the first
// kMaxRows elements get a row, and a note says how many more keep their values (the paper's unless a
// session or --slopes sets them). Rows are rebuilt when the number of elements changes.
#pragma once

#include "model/scenario_model.h"

#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;
class QToolButton;
class QGridLayout;

namespace posatlas::ui {

class LogSlider;

class ListSliders : public QWidget
{
    Q_OBJECT
public:
    // At most this many element rows (16 heads: the largest count of the classic ALiBi models' figures
    // stays reachable; BLOOM's 16 / 32 heads show their first 16).
    static constexpr int kMaxRows = 16;

    ListSliders(ScenarioModel* model, ParamId id, QWidget* parent = nullptr);

    // Shows the model's values; rebuilds the rows when the number of elements changed.
    void syncFromModel();

    int rowCount() const { return static_cast<int>(m_rows.size()); }
    LogSlider* slider(int index) const;
    QToolButton* resetButton(int index) const;
    QPushButton* resetAllButton() const { return m_resetAll; }
    QToolButton* header() const { return m_header; }
    QLabel* moreNote() const { return m_more; }

signals:
    void message(const QString& text);

private:
    struct Row {
        QLabel* label;
        LogSlider* slider;
        QToolButton* reset;
    };
    void rebuildRows(int count);
    void setExpanded(bool on);

    ScenarioModel* m_model;
    ParamId m_id;
    QToolButton* m_header = nullptr;
    QWidget* m_body = nullptr;
    QGridLayout* m_grid = nullptr;
    QPushButton* m_resetAll = nullptr;
    QLabel* m_more = nullptr;
    std::vector<Row> m_rows;
    bool m_syncing = false;
};

} // namespace posatlas::ui
