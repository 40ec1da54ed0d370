// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/autosave_controller.h"

#include "explorer/explorer_window.h"
#include "model/autosave.h"
#include "model/scenario_model.h"
#include "widgets/notice_area.h"
#include "window/language.h"
#include "window/session_actions.h"
#include "window/view_controller.h"
#include "window/window_status.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>

namespace posatlas::ui {

namespace {
const QString kAutosaveNotice = QStringLiteral("autosave");
const QString kRecoveryNotice = QStringLiteral("recovery");
} // namespace

AutosaveController::AutosaveController(SessionActions* sessions, ViewController* views, NoticeArea* notices,
                                       WindowStatus* status, const ExplorerAccess& explorer, QWidget* window)
    : QObject(window), m_sessions(sessions), m_views(views), m_notices(notices), m_status(status),
      m_explorer(explorer), m_window(window)
{
    m_autosave = new Autosave([this] { return snapshot(); }, this);
    connect(m_autosave, &Autosave::problemChanged, this, &AutosaveController::updateNotice);
    // Every edit, undo and redo arrives as scenarioChanged; dock arrangement changes as visibility.
    connect(m_views->model(), &ScenarioModel::scenarioChanged, m_autosave, &Autosave::markDirty);
    for (ViewKind k : kAllViewKinds)
        connect(m_views->dock(k), &QDockWidget::visibilityChanged, m_autosave, &Autosave::markDirty);
}

void AutosaveController::start(const QString& directory)
{
    m_autosaveDir = directory;
    if (m_autosaveDir.isEmpty())
        return;
    if (!m_autosave->start(m_autosaveDir))
        return; // the notice says why
    if (m_autosave->recoverable())
        QTimer::singleShot(0, this, [this] { offerRecovery(); });
}

void AutosaveController::updateNotice()
{
    const QString error = m_autosave->errorString();
    if (m_autosave->problem() == Autosave::Problem::None || error.isEmpty()) {
        m_notices->clear(kAutosaveNotice);
        return;
    }
    const QString text =
        m_autosave->problem() == Autosave::Problem::SaveFailed
            ? QCoreApplication::translate("posatlas::ui::MainWindow",
                                          "%1. Your changes since the last autosave are not protected.")
                  .arg(error)
            : QCoreApplication::translate("posatlas::ui::MainWindow", "Autosave is off: %1.").arg(error);
    m_notices->showNotice(
        kAutosaveNotice, text,
        {{QCoreApplication::translate("posatlas::ui::MainWindow", "&Retry"), [this] { retry(); }}});
    m_status->remember(text);
}

void AutosaveController::retry()
{
    if (m_autosave->active()) {
        m_autosave->saveNow(); // after a failed write; the old autosave stays until this one succeeds
        return;
    }
    if (m_autosaveDir.isEmpty() || !m_autosave->start(m_autosaveDir))
        return;
    m_status->showMessage(QCoreApplication::translate("posatlas::ui::MainWindow", "Autosave is on"), 5000);
    if (m_autosave->recoverable()) {
        m_recoveryOffered = false;
        QTimer::singleShot(0, this, [this] { offerRecovery(); });
    } else {
        m_autosave->markUnsaved(); // what was done while it was off
    }
}

QByteArray AutosaveController::snapshot() const
{
    Session s = m_sessions->currentSession();
    // The heatmap's measured size is the window's, not the user's work: a restore keeps the restoring
    // window's own (session_actions.cpp), and a layout settling after the start must not count as a
    // change to recover.
    const ViewSettings defaults;
    s.settings.pixel_width = defaults.pixel_width;
    s.settings.pixel_height = defaults.pixel_height;
    s.current_view = view_kind_id(m_sessions->currentView());
    if (ExplorerWindow* explorer = m_explorer.current ? m_explorer.current() : nullptr)
        s.explorer = explorer->state();
    return session_to_json(s);
}

void AutosaveController::replaceRecoveryFile(const QString& missing, const QString& replacement)
{
    m_recoveryReplacements[missing] = replacement;
}

bool AutosaveController::offerRecovery()
{
    if (m_recoveryOffered || !m_autosave->recoverable())
        return false;
    m_recoveryOffered = true;
    const QByteArray bytes = *m_autosave->recoverable();
    Session session;
    SessionReadReport report;
    report.allow_missing_files = true;
    report.replacements = m_recoveryReplacements;
    try {
        session = session_from_json(bytes, {}, &report);
    } catch (const SessionError& e) {
        // Truncated, damaged or from a newer PosAtlas: nothing to restore here, but the bytes are the
        // user's, so they are kept beside it and the notice says where.
        const QString why = QString::fromUtf8(e.what());
        const QString kept = m_autosave->setRecoverableAside();
        const QString text =
            kept.isEmpty()
                ? QCoreApplication::translate("posatlas::ui::MainWindow",
                                              "The autosaved work could not be read (%1) and "
                                              "stays in %2; autosave is paused until it "
                                              "is moved away.")
                      .arg(why, QDir::toNativeSeparators(m_autosave->filePath()))
                : QCoreApplication::translate("posatlas::ui::MainWindow",
                                              "The autosaved work could not be read (%1). It was kept as %2.")
                      .arg(why, QDir::toNativeSeparators(kept));
        m_notices->showNotice(kRecoveryNotice, text, {}, true);
        m_status->showError(text);
        return false;
    }
    const QDateTime when = QFileInfo(m_autosave->filePath()).lastModified();
    QString text = QCoreApplication::translate(
                       "posatlas::ui::MainWindow",
                       "PosAtlas did not close cleanly last time. Restore the work autosaved at %1?\n\n%2")
                       .arg(dateTimeText(when), scenario_caption(session.scenario));
    if (!report.missing_files.empty()) {
        QStringList lines;
        for (const MissingFile& f : report.missing_files)
            lines << QStringLiteral("%1 (%2)").arg(QDir::toNativeSeparators(f.path),
                                                   QString::fromStdString(f.key));
        text += QLatin1String("\n\n") +
                QCoreApplication::translate(
                    "posatlas::ui::MainWindow",
                    "It uses files that are missing (on a drive that is not mounted?):\n%1\n\nLocate… lets "
                    "you point at them. Restore without them uses the default in their place and keeps the "
                    "autosave as it was in a .bak file.")
                    .arg(lines.join(QLatin1Char('\n')));
    }
    auto answer = [this, bytes](bool restore) {
        m_notices->clear(kRecoveryNotice);
        if (!restore) {
            m_autosave->discardRecoverable();
            m_status->showMessage(
                QCoreApplication::translate("posatlas::ui::MainWindow", "Discarded the autosaved work"),
                8000);
            return;
        }
        std::vector<MissingFile> missing;
        if (!restoreSnapshot(bytes, &missing)) {
            // Nothing was restored: keep the work aside rather than lose it.
            const QString kept = m_autosave->setRecoverableAside();
            if (!kept.isEmpty())
                m_notices->showNotice(kRecoveryNotice,
                                      QCoreApplication::translate(
                                          "posatlas::ui::MainWindow",
                                          "The autosaved work could not be restored. It was kept as %1.")
                                          .arg(QDir::toNativeSeparators(kept)),
                                      {}, true);
            return;
        }
        if (!missing.empty()) {
            const QString kept = m_autosave->copyRecoverable();
            QStringList names;
            for (const MissingFile& f : missing)
                names << QDir::toNativeSeparators(f.path);
            m_notices->showNotice(
                kRecoveryNotice,
                (kept.isEmpty() ? QCoreApplication::translate(
                                      "posatlas::ui::MainWindow",
                                      "Restored the autosaved work without %1 (missing); the default takes "
                                      "its place.")
                                      .arg(names.join(QStringLiteral(", ")))
                                : QCoreApplication::translate(
                                      "posatlas::ui::MainWindow",
                                      "Restored the autosaved work without %1 (missing); the default takes "
                                      "its place. The autosave as it was is kept as %2.")
                                      .arg(names.join(QStringLiteral(", ")), QDir::toNativeSeparators(kept))),
                {}, true);
        }
        m_autosave->acceptRecoverable();
        m_status->showMessage(
            QCoreApplication::translate("posatlas::ui::MainWindow", "Restored the autosaved work"), 8000);
    };
    if (m_recoveryPrompt) {
        m_recoveryPrompt(text, answer);
        return true;
    }
    auto* box =
        new QMessageBox(QMessageBox::Question,
                        QCoreApplication::translate("posatlas::ui::MainWindow", "Restore autosaved work"),
                        text, QMessageBox::NoButton, m_window);
    QPushButton* restore = box->addButton(QCoreApplication::translate("posatlas::ui::MainWindow", "&Restore"),
                                          QMessageBox::AcceptRole);
    QPushButton* locate = nullptr;
    if (!report.missing_files.empty())
        locate = box->addButton(QCoreApplication::translate("posatlas::ui::MainWindow", "&Locate…"),
                                QMessageBox::ActionRole);
    QPushButton* discard = box->addButton(QCoreApplication::translate("posatlas::ui::MainWindow", "&Discard"),
                                          QMessageBox::DestructiveRole);
    QPushButton* later = box->addButton(QCoreApplication::translate("posatlas::ui::MainWindow", "La&ter"),
                                        QMessageBox::RejectRole);
    box->setDefaultButton(restore);
    box->setEscapeButton(later);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    const std::vector<MissingFile> missing = report.missing_files;
    connect(box, &QMessageBox::finished, this, [this, box, restore, locate, discard, answer, missing] {
        QAbstractButton* clicked = box->clickedButton();
        if (clicked == restore)
            answer(true);
        else if (clicked == discard)
            answer(false);
        else if (locate && clicked == locate)
            QTimer::singleShot(0, this, [this, missing] { locateMissingFiles(missing); });
        else
            keepRecoveryForLater(); // Later, Escape, the window closed: the file stays
    });
    box->open();
    return true;
}

void AutosaveController::locateMissingFiles(const std::vector<MissingFile>& missing)
{
    for (const MissingFile& f : missing) {
        const QString chosen =
            QFileDialog::getOpenFileName(m_window,
                                         QCoreApplication::translate("posatlas::ui::MainWindow", "Locate %1")
                                             .arg(QFileInfo(f.path).fileName()),
                                         QFileInfo(f.path).absolutePath());
        if (!chosen.isEmpty())
            replaceRecoveryFile(f.path, chosen);
    }
    m_recoveryOffered = false;
    offerRecovery(); // again, with the files found
}

void AutosaveController::keepRecoveryForLater()
{
    if (!m_autosave->recoverable())
        return;
    m_notices->showNotice(
        kRecoveryNotice,
        QCoreApplication::translate("posatlas::ui::MainWindow",
                                    "The autosaved work from the last run is kept in %1 until you restore or "
                                    "discard it; until then this window's changes are not autosaved.")
            .arg(QDir::toNativeSeparators(m_autosave->filePath())),
        {{QCoreApplication::translate("posatlas::ui::MainWindow", "Restore or Discard…"), [this] {
              m_recoveryOffered = false;
              offerRecovery();
          }}});
}

bool AutosaveController::restoreSnapshot(const QByteArray& bytes, std::vector<MissingFile>* missing)
{
    Session session;
    SessionReadReport report;
    report.allow_missing_files = true;
    report.replacements = m_recoveryReplacements;
    try {
        session = session_from_json(bytes, {}, &report);
    } catch (const SessionError& e) {
        m_status->showError(
            QCoreApplication::translate("posatlas::ui::MainWindow", "Cannot restore the autosave: %1")
                .arg(QString::fromUtf8(e.what())));
        return false;
    }
    if (!m_sessions->applySession(session,
                                  QCoreApplication::translate("posatlas::ui::MainWindow", "(recovered)")))
        return false;
    if (missing)
        *missing = report.missing_files;
    if (const auto kind = parse_view_kind(session.current_view))
        m_views->dock(*kind)->raise();
    if (session.explorer && m_explorer.open) {
        ExplorerWindow* explorer = m_explorer.open();
        if (!explorer->applyState(*session.explorer))
            m_status->showError(QCoreApplication::translate(
                "posatlas::ui::MainWindow", "The explorer's autosaved state did not fit and was left out"));
    }
    return true;
}

} // namespace posatlas::ui
