;;; test.el --- semapraxd --lsp driven by eglot in emacs --batch  -*- lexical-binding: t; -*-

;; This file owns the Emacs test's steps (run by tests/lsp/emacs/run in a
;; copy of examples/hello, after docs/editors.md's configuration): open
;; src/app.spx in semaprax-mode, start eglot as the configuration says, wait
;; for the server's diagnostics to reach flymake, insert an error and read
;; the diagnostic flymake shows, go to the definition of math.fact through
;; xref, and format a mis-laid buffer with eglot-format-buffer, comparing it
;; with `semaprax fmt'.  Every wait is a bounded loop of
;; accept-process-output (never a fixed sleep).  Prints a transcript; any
;; mismatch prints "FAIL: ..." and exits 1.  Environment: SPX_CLI, the
;; semaprax program.

(require 'cl-lib)
(require 'eglot)
(require 'flymake)
(require 'xref)

(defvar spx-test-root default-directory "The copy of examples/hello.")

(defvar spx-published 0
  "How many publishDiagnostics for src/app.spx eglot has received.")

(cl-defmethod eglot-handle-notification :before
  (_server (_method (eql textDocument/publishDiagnostics)) &key uri &allow-other-keys)
  (when (string-suffix-p "/src/app.spx" uri)
    (setq spx-published (1+ spx-published))))

(defun spx-say (format-string &rest args)
  (princ (concat (apply #'format format-string args) "\n")))

(defun spx-fail (format-string &rest args)
  (spx-say "FAIL: %s" (apply #'format format-string args))
  (kill-emacs 1))

(defun spx-wait (what condition &optional seconds)
  "Run the event loop until CONDITION returns non-nil, at most SECONDS (10);
return CONDITION's value and the milliseconds it took, or fail naming WHAT."
  (let ((start (float-time))
        (limit (or seconds 10))
        value)
    (while (and (not (setq value (funcall condition)))
                (< (- (float-time) start) limit))
      (accept-process-output nil 0.02))
    (unless value
      (spx-fail "%s: nothing after %d s" what limit))
    (cons value (round (* 1000 (- (float-time) start))))))

(defun spx-line-col (position)
  "POSITION as LINE:COLUMN, both from 1 (the column in characters)."
  (save-excursion
    (goto-char position)
    (format "%d:%d" (line-number-at-pos) (1+ (current-column)))))

(defun spx-diagnostics ()
  "Flymake's diagnostics of the current buffer, as LINE:COLUMN message."
  (mapcar (lambda (d)
            (format "%s %s" (spx-line-col (flymake-diagnostic-beg d))
                    (flymake-diagnostic-text d)))
          (sort (flymake-diagnostics)
                (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b))))))

(defun spx-send-changes ()
  "Send the buffer's changes now: eglot sends them from an idle timer,
which emacs --batch never runs (it is never idle)."
  (eglot--signal-textDocument/didChange))

(condition-case err
    (progn
      (spx-say "%s, eglot from %s" (car (split-string (emacs-version) "\n"))
               (abbreviate-file-name (file-name-directory (locate-library "eglot"))))
      ;; 1. Open src/app.spx and start eglot as the configuration says.
      (find-file (expand-file-name "src/app.spx" spx-test-root))
      (unless (eq major-mode 'semaprax-mode)
        (spx-fail "src/app.spx opened in %s, not semaprax-mode" major-mode))
      ;; The mode itself: faces, and indentation by braces as semaprax fmt's.
      (font-lock-ensure)
      (let ((faces (cl-loop for (text . face) in '(("export" . font-lock-keyword-face)
                                                   ("main" . font-lock-function-name-face)
                                                   ("-> int" . font-lock-type-face)
                                                   ("\"world\"" . font-lock-string-face)
                                                   ("The entry" . font-lock-comment-face)
                                                   ("fact(5" . font-lock-constant-face))
                            collect (save-excursion
                                      (goto-char (point-min))
                                      (search-forward text)
                                      (let ((got (get-text-property (1- (match-end 0)) 'face)))
                                        (unless (eq got face)
                                          (spx-fail "'%s' has face %s, not %s" text got face))
                                        (format "%s %s" text got))))))
        (spx-say "font-lock: %s" (mapconcat #'identity faces ", ")))
      (let ((original (buffer-string)))
        (with-temp-buffer
          (semaprax-mode)
          (insert (replace-regexp-in-string "^[ \t]+" "" original))
          (indent-region (point-min) (point-max))
          (unless (equal (buffer-string) original)
            (spx-fail "indent-region of the unindented file differs:\n%s" (buffer-string))))
        (spx-say "indent-region of src/app.spx without its indentation gives the file back"))
      (let* ((start (float-time))
             (contact (eglot--guess-contact)))
        (spx-say "open src/app.spx: %s, eglot contact %S, project %s"
                 major-mode (nth 3 contact)
                 (abbreviate-file-name (project-root (nth 1 contact))))
        (unless (equal (file-name-as-directory (expand-file-name (project-root (nth 1 contact))))
                       (file-name-as-directory (expand-file-name spx-test-root)))
          (spx-fail "the project is %s, not the folder of semaprax.toml"
                    (project-root (nth 1 contact))))
        (apply #'eglot contact)
        (let ((server (eglot-current-server)))
          (unless (and server eglot--managed-mode)
            (spx-fail "eglot does not manage src/app.spx"))
          (spx-say "  server %s started in %d ms; it advertises: %s"
                   (plist-get (eglot--server-info server) :name)
                   (round (* 1000 (- (float-time) start)))
                   (mapconcat #'symbol-name
                              (cl-loop for cap in '(:documentFormattingProvider
                                                    :definitionProvider
                                                    :hoverProvider
                                                    :renameProvider)
                                       when (eglot--server-capable cap)
                                       collect cap)
                              ", "))))
      ;; 2. The server's diagnostics reach flymake (an empty list for app.spx).
      (let ((waited (spx-wait "flymake hearing from eglot"
                              (lambda ()
                                (and flymake-mode
                                     (> spx-published 0)
                                     (memq 'eglot-flymake-backend
                                           (flymake-reporting-backends)))))))
        (spx-say "diagnostics of src/app.spx through flymake after %d ms: %s"
                 (cdr waited) (or (spx-diagnostics) "none"))
        (when (spx-diagnostics)
          (spx-fail "src/app.spx should be clean")))
      ;; 3. Insert an error (unsaved): flymake shows the server's diagnostic.
      (goto-char (point-min))
      (forward-line 6)
      (insert "    nosuch(1);\n")
      (spx-say "insert line 7 '    nosuch(1);'")
      (spx-send-changes)
      (let* ((waited (spx-wait "a diagnostic for nosuch" #'spx-diagnostics))
             (shown (car waited)))
        (spx-say "  after %d ms flymake shows: %s" (cdr waited)
                 (mapconcat #'identity shown " | "))
        (unless (and (= (length shown) 1)
                     (string-match-p "\\`7:5 .*unknown function 'nosuch'" (car shown)))
          (spx-fail "expected one diagnostic at 7:5 naming nosuch")))
      (forward-line -1)
      (delete-region (line-beginning-position) (line-beginning-position 2))
      (spx-say "delete line 7")
      (let ((before spx-published))
        (spx-send-changes)
        (let ((waited (spx-wait "the server's diagnostics of the edit"
                                (lambda () (> spx-published before)))))
          (spx-wait "the diagnostic to clear" (lambda () (null (spx-diagnostics))))
          (spx-say "  after %d ms: none" (cdr waited))))
      ;; 4. Definition of math.fact through xref: src/math.spx, on fact's name.
      (goto-char (point-min))
      (search-forward "math.fact")
      (backward-char 2)
      (let* ((backend (xref-find-backend))
             (identifier (xref-backend-identifier-at-point backend))
             (items (xref-backend-definitions backend identifier)))
        (unless (eq backend 'eglot)
          (spx-fail "the xref backend is %s, not eglot" backend))
        (unless (= (length items) 1)
          (spx-fail "%d definitions of math.fact" (length items)))
        (let* ((marker (xref-location-marker (xref-item-location (car items))))
               (file (buffer-file-name (marker-buffer marker)))
               (where (with-current-buffer (marker-buffer marker) (spx-line-col marker)))
               (word (with-current-buffer (marker-buffer marker)
                       (save-excursion (goto-char marker) (current-word t)))))
          (spx-say "definition of math.fact (xref): %s:%s, on '%s'"
                   (file-relative-name file spx-test-root) where word)
          (unless (and (equal (file-relative-name file spx-test-root) "src/math.spx")
                       (equal where "2:11") (equal word "fact"))
            (spx-fail "expected src/math.spx:2:11 on 'fact'"))))
      ;; 5. A mis-laid buffer formatted by eglot-format-buffer is semaprax fmt's layout.
      (let* ((original (buffer-string))
             (bad (replace-regexp-in-string
                   "(" " ( " (replace-regexp-in-string "^ +" "" original)))
             (scratch (make-temp-file "spx-fmt" nil ".spx" bad))
             (expected (with-temp-buffer
                         (unless (= 0 (call-process (getenv "SPX_CLI") nil t nil "fmt" scratch))
                           (spx-fail "semaprax fmt failed: %s" (buffer-string)))
                         (with-temp-buffer
                           (insert-file-contents scratch)
                           (buffer-string)))))
        (when (equal expected bad)
          (spx-fail "semaprax fmt did not change the mis-laid text"))
        (erase-buffer)
        (insert bad)
        (spx-send-changes)
        (spx-say "lay out the buffer badly (%d lines); semaprax fmt makes %d lines of it"
                 (count-lines (point-min) (point-max))
                 (with-temp-buffer (insert expected) (count-lines (point-min) (point-max))))
        (eglot-format-buffer)
        (unless (equal (buffer-string) expected)
          (spx-fail "the formatted buffer differs from semaprax fmt's output:\n--- buffer\n%s--- semaprax fmt\n%s"
                    (buffer-string) expected))
        (spx-say "  eglot-format-buffer: the buffer is semaprax fmt's output, byte for byte%s"
                 (if (equal expected original) " (the file's own bytes again)" "")))
      (set-buffer-modified-p nil)
      ;; eglot 1.9 sends shutdown with "params": null, which the server
      ;; takes as no params: the shutdown must succeed.
      (let ((server (eglot-current-server)))
        (condition-case shutdown-error
            (progn (eglot-shutdown server) (spx-say "eglot-shutdown: the server ended"))
          (error (spx-fail "eglot-shutdown: %s" (error-message-string shutdown-error)))))
      (spx-say "done")
      (kill-emacs 0))
  (error (spx-fail "%s" (error-message-string err))))
