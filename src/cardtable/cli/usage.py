"""The language of a command line's error message and the parser's usage errors in it: the
`--lang` given decides, whichever part of the command raised the error (cli/main.py `main`)."""

from __future__ import annotations

from cardtable.cli.i18n import LANGS, default_lang, t


def lang_of(args: list[str]) -> str:
    """The language the command line asks for (`--lang de` / `--lang=de`), else the locale's:
    the language of the error message, whichever part of the command raised it."""
    for i, arg in enumerate(args):
        value = None
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        if value is not None and value.lower() in LANGS:
            return value.lower()
    return default_lang()


def usage_words(e: Exception, lang: str, args: list[str]) -> str:
    """A usage error of the command-line parser (unknown option, bad value, missing argument)
    in `lang`; in English as the parser words it. Known by class name, so that Typer's own
    parser and click word alike."""
    if lang == "en":
        return e.format_message()
    kinds = {c.__name__ for c in type(e).__mro__}
    param = getattr(e, "param", None)
    if "NoSuchOption" in kinds:
        return t(lang, "cli.err_no_option", option=e.option_name)
    if "MissingParameter" in kinds and param is not None:
        return t(lang, "cli.err_missing", param=param_name(param))
    if "BadParameter" in kinds and param is not None:
        name = param_name(param)
        given = next((a.partition("=")[2] or (args[i + 1] if i + 1 < len(args) else "")
                      for i, a in enumerate(args) if a.partition("=")[0] in
                      getattr(param, "opts", ())), None)
        if given is None:
            return t(lang, "cli.err_bad_param", param=name)
        return t(lang, "cli.err_bad_value", param=name, value=repr(given))
    if "NoArgsIsHelpError" in kinds:
        return e.format_message()
    extra = [a for a in args if e.format_message().startswith("Got unexpected extra argument")
             and a in e.format_message()]
    if extra:
        return t(lang, "cli.err_extra", args=" ".join(extra))
    return t(lang, "cli.err_usage", msg=e.format_message())


def param_name(param) -> str:
    opts = getattr(param, "opts", None)
    if opts and str(opts[0]).startswith("-"):
        return max(opts, key=len)
    return (getattr(param, "metavar", None) or param.name or "").upper()
