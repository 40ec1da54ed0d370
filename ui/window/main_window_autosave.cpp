// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's autosave and crash recovery (autosave.h), kept beside main_window.cpp: what a snapshot
// holds, when it is taken, and how a recovered one is offered and restored. The autosave is a session
// file (session.h), so it has one format, one reader and one validator with File > Open Session.
//
// Nothing here throws work away on its own: an autosave that cannot be read is moved aside (.bak), one
// whose files are missing is offered with their names, and only Discard deletes it. When autosave is off
// (a full disk, another instance) a notice says why for as long as it lasts.
#include "explorer/explorer_window.h"
#include "model/autosave.h"
#include "widgets/notice_area.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/session_actions.h"

#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

namespace posatlas::ui {

namespace {
const QString kAutosaveNotice = QStringLiteral("autosave");
const QString kRecoveryNotice = QStringLiteral("recovery");
const QString kSessionNotice = QStringLiteral("session");
} // namespace

void MainWindow::createNotices()
{
    m_noticeBar = new QToolBar(tr("Notices"), this);
    m_noticeBar->setObjectName(QStringLiteral("NoticeBar"));
    m_noticeBar->setMovable(false);
    m_noticeBar->setFloatable(false);
    m_noticeBar->toggleViewAction()->setVisible(false); // not in the docks' context menu: it is no choice
    m_notices = new NoticeArea(m_noticeBar);
    m_noticeBar->addWidget(m_notices);
    addToolBar(Qt::TopToolBarArea, m_noticeBar);
    const auto sync = [this] { m_noticeBar->setVisible(!m_notices->isEmpty()); };
    connect(m_notices, &NoticeArea::changed, this, sync);
    // restoreState() (the saved layout, leaving a presentation) would show or hide it by what it was.
    connect(m_noticeBar, &QToolBar::visibilityChanged, this, [this, sync](bool visible) {
        if (visible == m_notices->isEmpty())
            QTimer::singleShot(0, this, sync);
    });
    sync();
}

void MainWindow::startAutosave(const QString& settingsPath)
{
    m_autosave = new Autosave([this] { return autosaveSnapshot(); }, this);
    connect(m_autosave, &Autosave::problemChanged, this, &MainWindow::updateAutosaveNotice);
    // Every edit, undo and redo arrives as scenarioChanged; dock arrangement changes as visibility.
    connect(m_model, &ScenarioModel::scenarioChanged, m_autosave, &Autosave::markDirty);
    for (ViewKind k : kAllViewKinds)
        connect(dock(k), &QDockWidget::visibilityChanged, m_autosave, &Autosave::markDirty);

    m_autosaveDir =
        settingsPath.isEmpty() ? Autosave::defaultDirectory() : qEnvironmentVariable("POSATLAS_STATE_DIR");
    if (m_autosaveDir.isEmpty())
        return;
    if (!m_autosave->start(m_autosaveDir))
        return; // the notice says why
    if (m_autosave->recoverable())
        QTimer::singleShot(0, this, [this] { offerRecovery(); });
}

void MainWindow::updateAutosaveNotice()
{
    const QString error = m_autosave->errorString();
    if (m_autosave->problem() == Autosave::Problem::None || error.isEmpty()) {
        m_notices->clear(kAutosaveNotice);
        return;
    }
    const QString text = m_autosave->problem() == Autosave::Problem::SaveFailed
                             ? tr("%1. Your changes since the last autosave are not protected.").arg(error)
                             : tr("Autosave is off: %1.").arg(error);
    m_notices->showNotice(kAutosaveNotice, text, {{tr("&Retry"), [this] { retryAutosave(); }}});
    m_lastMessage = text;
}

void MainWindow::retryAutosave()
{
    if (m_autosave->active()) {
        m_autosave->saveNow(); // after a failed write; the old autosave stays until this one succeeds
        return;
    }
    if (m_autosaveDir.isEmpty() || !m_autosave->start(m_autosaveDir))
        return;
    statusBar()->showMessage(tr("Autosave is on"), 5000);
    if (m_autosave->recoverable()) {
        m_recoveryOffered = false;
        QTimer::singleShot(0, this, [this] { offerRecovery(); });
    } else {
        m_autosave->markDirty(); // what was done while it was off
    }
}

QByteArray MainWindow::autosaveSnapshot() const
{
    Session s = m_sessions->currentSession();
    s.current_view = view_kind_id(m_sessions->currentView());
    if (m_explorer)
        s.explorer = m_explorer->state();
    return session_to_json(s);
}

void MainWindow::replaceRecoveryFile(const QString& missing, const QString& replacement)
{
    m_recoveryReplacements[missing] = replacement;
}

bool MainWindow::offerRecovery()
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
                ? tr("The autosaved work could not be read (%1) and stays in %2; autosave is paused until it "
                     "is moved away.")
                      .arg(why, QDir::toNativeSeparators(m_autosave->filePath()))
                : tr("The autosaved work could not be read (%1). It was kept as %2.")
                      .arg(why, QDir::toNativeSeparators(kept));
        m_notices->showNotice(kRecoveryNotice, text, {}, true);
        showError(text);
        return false;
    }
    const QDateTime when = QFileInfo(m_autosave->filePath()).lastModified();
    QString text = tr("PosAtlas did not close cleanly last time. Restore the work autosaved at %1?\n\n%2")
                       .arg(dateTimeText(when), scenario_caption(session.scenario));
    if (!report.missing_files.empty()) {
        QStringList lines;
        for (const MissingFile& f : report.missing_files)
            lines << QStringLiteral("%1 (%2)").arg(QDir::toNativeSeparators(f.path),
                                                   QString::fromStdString(f.key));
        text += QLatin1String("\n\n") +
                tr("It uses files that are missing (on a drive that is not mounted?):\n%1\n\nLocate… lets "
                   "you point at them. Restore without them uses the default in their place and keeps the "
                   "autosave as it was in a .bak file.")
                    .arg(lines.join(QLatin1Char('\n')));
    }
    auto answer = [this, bytes](bool restore) {
        m_notices->clear(kRecoveryNotice);
        if (!restore) {
            m_autosave->discardRecoverable();
            statusBar()->showMessage(tr("Discarded the autosaved work"), 8000);
            return;
        }
        std::vector<MissingFile> missing;
        if (!restoreAutosave(bytes, &missing)) {
            // Nothing was restored: keep the work aside rather than lose it.
            const QString kept = m_autosave->setRecoverableAside();
            if (!kept.isEmpty())
                m_notices->showNotice(kRecoveryNotice,
                                      tr("The autosaved work could not be restored. It was kept as %1.")
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
                (kept.isEmpty() ? tr("Restored the autosaved work without %1 (missing); the default takes "
                                     "its place.")
                                      .arg(names.join(QStringLiteral(", ")))
                                : tr("Restored the autosaved work without %1 (missing); the default takes "
                                     "its place. The autosave as it was is kept as %2.")
                                      .arg(names.join(QStringLiteral(", ")), QDir::toNativeSeparators(kept))),
                {}, true);
        }
        m_autosave->acceptRecoverable();
        statusBar()->showMessage(tr("Restored the autosaved work"), 8000);
    };
    if (m_recoveryPrompt) {
        m_recoveryPrompt(text, answer);
        return true;
    }
    auto* box = new QMessageBox(QMessageBox::Question, tr("Restore autosaved work"), text,
                                QMessageBox::NoButton, this);
    QPushButton* restore = box->addButton(tr("&Restore"), QMessageBox::AcceptRole);
    QPushButton* locate = nullptr;
    if (!report.missing_files.empty())
        locate = box->addButton(tr("&Locate…"), QMessageBox::ActionRole);
    QPushButton* discard = box->addButton(tr("&Discard"), QMessageBox::DestructiveRole);
    QPushButton* later = box->addButton(tr("La&ter"), QMessageBox::RejectRole);
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

void MainWindow::locateMissingFiles(const std::vector<MissingFile>& missing)
{
    for (const MissingFile& f : missing) {
        const QString chosen = QFileDialog::getOpenFileName(
            this, tr("Locate %1").arg(QFileInfo(f.path).fileName()), QFileInfo(f.path).absolutePath());
        if (!chosen.isEmpty())
            replaceRecoveryFile(f.path, chosen);
    }
    m_recoveryOffered = false;
    offerRecovery(); // again, with the files found
}

void MainWindow::keepRecoveryForLater()
{
    if (!m_autosave->recoverable())
        return;
    m_notices->showNotice(kRecoveryNotice,
                          tr("The autosaved work from the last run is kept in %1 until you restore or "
                             "discard it; until then this window's changes are not autosaved.")
                              .arg(QDir::toNativeSeparators(m_autosave->filePath())),
                          {{tr("Restore or Discard…"), [this] {
                                m_recoveryOffered = false;
                                offerRecovery();
                            }}});
}

bool MainWindow::restoreAutosave(const QByteArray& bytes, std::vector<MissingFile>* missing)
{
    Session session;
    SessionReadReport report;
    report.allow_missing_files = true;
    report.replacements = m_recoveryReplacements;
    try {
        session = session_from_json(bytes, {}, &report);
    } catch (const SessionError& e) {
        showError(tr("Cannot restore the autosave: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    if (!m_sessions->applySession(session, tr("(recovered)")))
        return false;
    if (missing)
        *missing = report.missing_files;
    if (const auto kind = parse_view_kind(session.current_view))
        dock(*kind)->raise();
    if (session.explorer) {
        ExplorerWindow* explorer = openExplorer();
        if (!explorer->applyState(*session.explorer))
            showError(tr("The explorer's autosaved state did not fit and was left out"));
    }
    return true;
}

void MainWindow::showUnknownKeys(const QString& file, const std::vector<UnknownKey>& keys)
{
    if (keys.empty()) {
        m_notices->clear(kSessionNotice);
        return;
    }
    QStringList lines;
    for (const UnknownKey& k : keys)
        lines << (k.suggestion.empty()
                      ? tr("unknown key %1").arg(QString::fromStdString(k.key))
                      : tr("unknown key %1 (did you mean %2?)")
                            .arg(QString::fromStdString(k.key), QString::fromStdString(k.suggestion)));
    const QString text = tr("%1: these keys were ignored and their values are the defaults: %2")
                             .arg(QFileInfo(file).fileName(), lines.join(QStringLiteral("; ")));
    m_notices->showNotice(kSessionNotice, text, {}, true);
    m_lastMessage = text;
}

} // namespace posatlas::ui
