;;; eglot_driver.el --- drive the documented Eglot setup -*- lexical-binding: t; -*-

;; Run as `emacs --batch -Q -l eglot_driver.el' by test_emacs.py: loads the
;; blocks of docs/editors.md ($TW_CONFIG, $TW_COMMANDS), does what a user
;; would (open, M-x eglot, run, code actions, tape graph, cancel), and
;; writes what it saw to $TW_RESULT as JSON. It only observes; the commands
;; under test are the documented ones.

(require 'package)
;; Eglot from the package archive on Emacs 28: Debian's elpa-eglot lives in
;; its system ELPA folder, which Debian's site start-up (skipped by -Q) adds.
(when (file-directory-p "/usr/share/emacs/site-lisp/elpa")
  (add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa"))
(package-initialize)
(require 'cl-lib)
(require 'json)
(load (getenv "TW_CONFIG") nil t)
(load (getenv "TW_COMMANDS") nil t)

(defvar tw-result nil "Alist written as JSON at the end.")
(defvar tw-started (float-time))
(defvar tw-finished nil "(URI STATUS REASON AT) of each tapewatch/runFinished, newest first.")
(defvar tw-logged nil "window/logMessage texts.")
(defvar tw-messages nil "Every `message', newest first.")
(defvar tw-steps nil "What was waited for, and when, newest first.")

(defun tw-put (key value) (push (cons key value) tw-result))
(defun tw-now () (- (float-time) tw-started))

(defun tw-wait (what seconds pred)
  "Process events until PRED holds, or fail naming WHAT."
  (let ((deadline (+ (float-time) seconds)))
    (while (not (funcall pred))
      (when (> (float-time) deadline)
        (error "timed out after %ss waiting for %s" seconds what))
      ;; Flymake starts its backends from the command loop, which batch
      ;; mode lacks: start it the way the first command would.
      (when (bound-and-true-p flymake-mode) (flymake-start))
      (accept-process-output nil 0.05))
    (push `((what . ,what) (at . ,(tw-now))) tw-steps)))

;; Observers, after the documented handler.
(cl-defmethod eglot-handle-notification :after
  (_server (_method (eql tapewatch/runFinished)) &key uri summary)
  (push (list uri (plist-get summary :status) (plist-get summary :reason) (tw-now)) tw-finished))
(cl-defmethod eglot-handle-notification :after
  (_server (_method (eql window/logMessage)) &key _type message)
  (push message tw-logged))
(advice-add 'message :around
            (lambda (orig &rest args)
              (let ((text (apply orig args)))
                (when text (push text tw-messages))
                text)))

(defun tw-finished-for (file)
  (cl-remove-if-not (lambda (f) (string-suffix-p (file-name-nondirectory file) (car f)))
                    (reverse tw-finished)))

(defun tw-lines (code)
  "Lines of the current buffer's Flymake diagnostics with CODE."
  (sort (cl-loop for d in (flymake-diagnostics)
                 for lsp = (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))
                 when (equal (plist-get lsp :code) code)
                 collect (line-number-at-pos (flymake-diagnostic-beg d)))
        #'<))

(defun tw-open (file)
  (find-file file)
  (unless (eglot-current-server) (call-interactively #'eglot)) ; M-x eglot
  (tw-wait (format "Eglot managing %s" (file-name-nondirectory file)) 60
           (lambda () (bound-and-true-p eglot--managed-mode))))

(defun tw-goto-line (line)
  (goto-char (point-min))
  (forward-line (1- line))
  (back-to-indentation))

(defun tw-main ()
  (tw-put 'emacs emacs-version)
  (tw-put 'eglot (ignore-errors (package-version-join
                                 (package-desc-version (cadr (assq 'eglot package-alist))))))
  ;; 1. Static lints, on open.
  (tw-open (getenv "TW_LINTED"))
  (tw-wait "the TW301 lint" 30 (lambda () (tw-lines "TW301")))
  (tw-put 'lint_lines (tw-lines "TW301"))

  ;; 2. A verification run through the documented command.
  (let ((script (getenv "TW_SCRIPT")))
    (tw-open script)
    (tapewatch-run-verification)
    (tw-wait "the run of copy_overwrite.py" 240 (lambda () (tw-finished-for script)))
    (tw-put 'run_status (nth 1 (car (tw-finished-for script))))
    (tw-wait "its diagnostics" 30 (lambda () (tw-lines "TW102")))
    (tw-put 'tw102_lines (tw-lines "TW102"))

    ;; 3. Code actions on that line, as M-x eglot-code-actions offers them;
    ;; choosing "Show documentation" makes the server name the page.
    (tw-goto-line (car (tw-lines "TW102")))
    (let ((last-nonmenu-event ?\r)        ; invoked from the keyboard, not a menu
          (before (length tw-messages))
          titles)
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt collection &rest _)
                   (setq titles (mapcar #'car collection))
                   (or (cl-find-if (lambda (title) (string-prefix-p "Show documentation" title)) titles)
                       (car titles)))))
        (call-interactively #'eglot-code-actions))
      (tw-put 'code_actions titles)
      (tw-wait "the documentation" 30
               (lambda () (cl-find-if (lambda (m) (string-match-p "TW102" m))
                                      (butlast tw-messages before))))
      (tw-put 'documentation (cl-find-if (lambda (m) (string-match-p "TW102" m)) tw-messages)))

    ;; 4. The tape graph: the documented command (jsonrpc-request).
    (tapewatch-tape-graph)
    (with-current-buffer "*tapewatch graph*"
      (tw-put 'graph_buffer (split-string (buffer-substring-no-properties (point-min) (point-max)) "\n" t))))

  ;; 5. Cancel: a second run replaces the first (whose end must not forget
  ;; the second's id), then the documented cancel stops the second.
  (let ((slow (getenv "TW_SLOW")))
    (tw-open slow)
    (cl-flet ((started () (cl-count-if (lambda (m) (string-match-p "slow script started" m)) tw-logged)))
      (tapewatch-run-verification)
      (tw-wait "the slow script to start" 60 (lambda () (>= (started) 1)))
      (tapewatch-run-verification)
      (tw-wait "the first slow run to end" 30 (lambda () (tw-finished-for slow)))
      (tw-wait "the second slow script to start" 60 (lambda () (>= (started) 2)))
      (let ((cancelled-at (tw-now)))
        (tapewatch-cancel-verification)
        (tw-wait "the cancelled run to end" 30 (lambda () (>= (length (tw-finished-for slow)) 2)))
        (tw-put 'slow_runs (mapcar (lambda (f) `((status . ,(nth 1 f)) (reason . ,(nth 2 f))))
                                   (tw-finished-for slow)))
        (tw-put 'cancel_seconds (- (nth 3 (nth 1 (tw-finished-for slow))) cancelled-at)))))
  (tw-put 'no_run_to_cancel (and (member "Tapewatch: no run to cancel" tw-messages) t)))

(tw-put 'errors
        (condition-case err
            (progn (tw-main) [])
          (error (vector (error-message-string err)))))
(tw-put 'steps (vconcat (reverse tw-steps)))
(with-temp-file (getenv "TW_RESULT")
  (insert (json-encode tw-result)))
(ignore-errors (eglot-shutdown (eglot-current-server) nil 5))
(kill-emacs 0)
