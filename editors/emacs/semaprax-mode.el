;;; semaprax-mode.el --- Major mode for Semaprax sources (.spx)  -*- lexical-binding: t; -*-

;; This file owns Emacs's view of a Semaprax source: the major mode
;; `semaprax-mode' (derived from `prog-mode') for `.spx' files, its syntax
;; table (`//' comments, strings with escapes, byte literals), font-lock
;; for keywords, the types int/bool/str, builtins, strings, numbers and
;; function names at declarations, indentation of 4 spaces a brace level,
;; and a project.el finder that makes the folder holding `semaprax.toml'
;; the project of a Semaprax buffer (so that eglot starts `semapraxd --lsp'
;; there). The language server configuration is in docs/editors.md.

;;; Code:

(defgroup semaprax nil
  "Semaprax, a small statically-typed language."
  :group 'languages)

(defcustom semaprax-indent-offset 4
  "Columns a brace level indents (4, as `semaprax fmt' lays it out)."
  :type 'integer
  :safe #'integerp)

(defconst semaprax-keywords
  '("fn" "export" "import" "let" "var" "if" "else" "while" "return"
    "struct" "const" "for" "in" "break" "continue" "enum" "match")
  "Semaprax's keywords (language v3), `true' and `false' excepted.")

(defconst semaprax-types '("int" "bool" "str")
  "Semaprax's builtin types.")

(defconst semaprax-builtins
  '("print" "itos" "len" "assert" "chr" "stoi" "assert_eq" "read_data" "args")
  "Semaprax's builtin functions.")

(defvar semaprax-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?/ ". 12" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?\' "\"" table)
    (modify-syntax-entry ?\\ "\\" table)
    (modify-syntax-entry ?_ "_" table)
    (dolist (c '(?+ ?- ?* ?% ?< ?> ?= ?! ?& ?| ?^ ?~))
      (modify-syntax-entry c "." table))
    table)
  "Syntax table of `semaprax-mode': `//' comments to the line end, strings
in double quotes and byte literals in single quotes, `\\' escapes.")

(defconst semaprax-font-lock-keywords
  `((,(regexp-opt semaprax-keywords 'symbols) . font-lock-keyword-face)
    (,(regexp-opt '("true" "false") 'symbols) . font-lock-constant-face)
    (,(regexp-opt semaprax-types 'symbols) . font-lock-type-face)
    (,(regexp-opt semaprax-builtins 'symbols) . font-lock-builtin-face)
    ("\\_<fn[ \t]+\\([A-Za-z_][A-Za-z0-9_]*\\)" 1 font-lock-function-name-face)
    ("\\_<\\(?:struct\\|enum\\)[ \t]+\\([A-Za-z_][A-Za-z0-9_]*\\)" 1 font-lock-type-face)
    ("\\_<const[ \t]+\\([A-Za-z_][A-Za-z0-9_]*\\)" 1 font-lock-constant-face)
    ("\\_<\\(?:0x[0-9A-Fa-f][0-9A-Fa-f_]*\\|[0-9][0-9_]*\\)\\_>" . font-lock-constant-face))
  "Highlighting of `semaprax-mode'.
Strings and comments come from the syntax table.")

(defun semaprax-indent-line ()
  "Indent the current line: `semaprax-indent-offset' columns for each
bracket open before it, one fewer when it starts by closing one."
  (interactive)
  (let* ((depth (save-excursion (car (syntax-ppss (line-beginning-position)))))
         (closing (save-excursion
                    (back-to-indentation)
                    (looking-at-p "[])}]")))
         (column (* semaprax-indent-offset (max 0 (if closing (1- depth) depth))))
         (offset (- (current-column) (current-indentation))))
    (indent-line-to column)
    (when (> offset 0)
      (move-to-column (+ column offset)))))

(defun semaprax-project-find (directory)
  "The project of a Semaprax buffer: the folder holding the nearest
`semaprax.toml' above DIRECTORY, as a transient project; nil elsewhere."
  (when (derived-mode-p 'semaprax-mode)
    (let ((root (locate-dominating-file directory "semaprax.toml")))
      (when root
        (cons 'transient (expand-file-name root))))))

;;;###autoload
(define-derived-mode semaprax-mode prog-mode "Semaprax"
  "Major mode for Semaprax sources."
  :syntax-table semaprax-mode-syntax-table
  (setq-local font-lock-defaults '(semaprax-font-lock-keywords))
  (setq-local comment-start "// ")
  (setq-local comment-end "")
  (setq-local comment-start-skip "//+[ \t]*")
  (setq-local indent-tabs-mode nil)
  (setq-local tab-width 4)
  (setq-local indent-line-function #'semaprax-indent-line)
  (setq-local electric-indent-chars (append "{}()[]" electric-indent-chars))
  (add-hook 'project-find-functions #'semaprax-project-find nil t))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.spx\\'" . semaprax-mode))

(provide 'semaprax-mode)

;;; semaprax-mode.el ends here
