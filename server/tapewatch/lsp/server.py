"""The core of the language server: protocol hooks, feature registry, guards.

The core owns the LSP lifecycle and document notifications and fans them
out to the features.  pygls allows one handler per method, so features do
not register ``textDocument/didOpen`` & co. themselves: they implement the
hooks of :class:`Feature` and the core calls each one, guarded.  Requests
and commands a single feature answers (code actions, custom requests,
``workspace/executeCommand`` commands) are registered through
:meth:`TapewatchServer.handle` / :meth:`TapewatchServer.command`, which wrap
the handler so an exception is logged and answered with an error instead of
escaping.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import importlib
import inspect
import logging
import os
import signal
import sys
import traceback
from urllib.parse import unquote
from typing import Any, Callable, Dict, List, Optional, Type, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from .. import __version__
from . import documents, uris
from .documents import Document
from .positions import LineEdit

logger = logging.getLogger("tapewatch.lsp")

# One module per feature, set up in this order (later ones may use earlier ones).
FEATURE_MODULES = (
    "settings",
    "project_config",
    "diagnostics",
    "runs",
    "lints",
    "code_actions",
    "tape_graph",
    "harness",
    "investigate",
)

F = TypeVar("F", bound=Callable[..., Any])
FeatureT = TypeVar("FeatureT", bound="Feature")

# The params of the ``workspace/executeCommand`` request being handled: pygls
# passes only the arguments to a command, and runVerification needs the
# request's ``workDoneToken``.  Set in the request's context, inherited by the
# task that runs the command.
_EXECUTE_PARAMS: contextvars.ContextVar[Optional[types.ExecuteCommandParams]] = contextvars.ContextVar(
    "tapewatch_execute_params", default=None)


class TapewatchProtocol(LanguageServerProtocol):
    """pygls' protocol with the server's own documents, and the hooks the features need."""

    _server: "TapewatchServer"

    def _handle_cancel_notification(self, msg_id):
        # pygls cancels the request's future (and answers RequestCancelled),
        # but a command already running keeps running: tell its owner.
        # A cancel that arrives after its request was answered is an ordinary race (a run
        # cancelled as it ends): pygls would log a warning for it, the server says nothing.
        if msg_id in getattr(self, "_request_futures", {msg_id: None}):
            super()._handle_cancel_notification(msg_id)
        self._server.request_cancelled(msg_id)

    @lsp_method(types.WORKSPACE_EXECUTE_COMMAND)
    def lsp_workspace__execute_command(self, params: types.ExecuteCommandParams):
        _EXECUTE_PARAMS.set(params)
        return (yield from super().lsp_workspace__execute_command(params))

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        # The server's own document type (a list of lines: an edit costs what it touches).
        item = params.text_document
        self._open(item.uri, item.text, item.version, item.language_id)
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    def _open(self, uri: str, text: str, version: Optional[int], language_id: Optional[str]) -> Document:
        codec = self.workspace.position_codec
        doc = Document(uri, text, version, language_id, codec.client_num_units, position_codec=codec)
        self.workspace.text_documents[unquote(uri)] = doc
        return doc

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        doc = self._server.document(params.text_document.uri)
        large = isinstance(doc, Document) and doc.size() > documents.LARGE
        self.workspace.remove_text_document(params.text_document.uri)
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None
        if large:  # once the features let go of it too (their withdrawn diagnostics are sent)
            asyncio.get_running_loop().call_soon(documents.release_memory)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        # Each change is applied by the document, which says how it moved the lines; the features
        # get that, never a range to interpret again (the buffer and the diagnostics cannot disagree).
        uri = params.text_document.uri
        doc = self._server.document(uri)
        if doc is None:
            logger.warning("didChange for a document that is not open: %s", uri)
            return
        if not isinstance(doc, Document):  # one pygls opened (a notebook's cell): ours from now on
            doc = self._open(uri, doc.source, doc.version, doc.language_id)
        self._server.change_arrived(uri)
        for change in params.content_changes:
            self._server.edited(uri, doc.apply(change))
        doc.version = params.text_document.version
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None


class Feature:
    """One feature of the server.  Override the hooks it needs.

    Hooks run on the event loop and must not block.  ``initialized``,
    ``settings_changed`` and ``shutdown`` may be coroutines.
    """

    name = "feature"

    def __init__(self, server: "TapewatchServer"):
        self.server = server

    def initialize(self, params: types.InitializeParams) -> None:
        """The ``initialize`` request, before capabilities are computed."""

    def initialized(self) -> Any:
        """The ``initialized`` notification (may be async)."""

    def settings_changed(self) -> Any:
        """Settings changed (after the settings feature updated them)."""

    def change_arrived(self, uri: str) -> None:
        """A ``didChange`` arrived, before any feature saw its changes (timers start here)."""

    def edited(self, uri: str, edit: LineEdit) -> None:
        """One content change of an open document was applied: how it moved the lines."""

    def document_open(self, uri: str) -> None:
        pass

    def document_change(self, uri: str) -> None:
        """After all changes of one didChange notification were applied."""

    def document_save(self, uri: str) -> None:
        pass

    def document_close(self, uri: str) -> None:
        pass

    def shutdown(self) -> Any:
        """The ``shutdown`` request (may be async): stop runs, timers."""


class TapewatchServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "tapewatch",
            __version__,
            protocol_cls=TapewatchProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        )
        self.features: Dict[str, Feature] = {}
        self.log_handler: Optional[Any] = None  # log.ClientLogHandler, set by create_server
        self._cancel_hooks: Dict[Any, Callable[[], None]] = {}
        self._early_cancels: List[Any] = []  # cancelled before their handler registered a hook
        self._register_core_handlers()

    # -- features ---------------------------------------------------------

    def add_feature(self, feature: FeatureT) -> FeatureT:
        self.features[feature.name] = feature
        return feature

    def get_feature(self, kind: Type[FeatureT]) -> Optional[FeatureT]:
        """The feature of that class, if it was set up (a test server may leave some out)."""
        feature = self.features.get(kind.name)
        return feature if isinstance(feature, kind) else None

    def require(self, kind: Type[FeatureT]) -> FeatureT:
        """A feature the caller cannot work without (settings)."""
        feature = self.get_feature(kind)
        if feature is None:
            raise RuntimeError("the %s feature is not set up" % kind.name)
        return feature

    def report_error(self, feature: str, what: str, exc: BaseException) -> None:
        """Log a feature's exception once, with its traceback (see ``log``); never raises."""
        try:
            logger.error("%s failed in %s: %s: %s\n%s", feature, what, type(exc).__name__, exc,
                         "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)).rstrip())
        except Exception:  # noqa: BLE001 (the reporter itself must not fail)
            pass

    def log(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    def show(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None:
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def _dispatch(self, hook: str, *args: Any, collect: bool = False) -> List[Any]:
        """Call ``hook`` on every feature.

        Awaitables the hooks return are handed back with ``collect``, else
        run as background tasks whose errors are reported.
        """
        pending = []
        for feature in list(self.features.values()):
            method = getattr(feature, hook, None)
            if method is None:
                continue
            try:
                out = method(*args)
            except Exception as exc:  # noqa: BLE001 (isolation)
                self.report_error(feature.name, hook, exc)
                continue
            if inspect.isawaitable(out):
                if collect:
                    pending.append((feature.name, out))
                else:
                    self.spawn(feature.name, hook, out)
        return pending

    async def _dispatch_async(self, hook: str, *args: Any) -> None:
        for name, awaitable in self._dispatch(hook, *args, collect=True):
            try:
                await awaitable
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 (isolation)
                self.report_error(name, hook, exc)

    def spawn(self, feature: str, what: str, coro) -> asyncio.Task:
        """A background task whose exception is reported, not lost."""
        task = asyncio.ensure_future(coro)

        def done(t: asyncio.Task) -> None:
            exc = None if t.cancelled() else t.exception()
            if exc is not None:
                self.report_error(feature, what, exc)

        task.add_done_callback(done)
        return task

    async def settings_changed(self) -> None:
        await self._dispatch_async("settings_changed")

    # -- guarded registration ---------------------------------------------

    def _guard(self, feature: str, what: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        if asyncio.iscoroutinefunction(fn):
            @functools.wraps(fn)
            async def guarded_async(*args, **kwargs):
                try:
                    return await fn(*args, **kwargs)
                except (asyncio.CancelledError, JsonRpcException):
                    raise
                except Exception as exc:
                    self.report_error(feature, what, exc)
                    raise JsonRpcInternalError("tapewatch %s: %s: %s" % (what, type(exc).__name__, exc)) from exc

            return guarded_async

        @functools.wraps(fn)
        def guarded(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except JsonRpcException:
                raise
            except Exception as exc:
                self.report_error(feature, what, exc)
                raise JsonRpcInternalError("tapewatch %s: %s: %s" % (what, type(exc).__name__, exc)) from exc

        return guarded

    def handle(self, feature: str, method: str, options: Any = None) -> Callable[[F], F]:
        """Register ``fn(params)`` for a request or notification only this feature answers, guarded."""

        def decorator(fn: F) -> F:
            guarded = self._guard(feature, method, fn)
            # Hide the signature so pygls does not inject the server.
            self.protocol.fm.feature(method, options)(_plain(guarded))
            return fn

        return decorator

    def command(self, feature: str, name: str) -> Callable[[F], F]:  # type: ignore[override]
        """Register ``fn(*arguments)`` for ``workspace/executeCommand``, guarded."""

        def decorator(fn: F) -> F:
            guarded = self._guard(feature, name, fn)
            self.protocol.fm.command(name)(_plain(guarded))
            return fn

        return decorator

    # -- hooks from the protocol ------------------------------------------

    def execute_params(self) -> Optional[types.ExecuteCommandParams]:
        """The executeCommand params of the command running in this task."""
        return _EXECUTE_PARAMS.get()

    def current_request_id(self) -> Any:
        return self.protocol.msg_id

    def on_cancel_request(self, msg_id: Any, hook: Callable[[], None]) -> Callable[[], None]:
        """Call ``hook`` when the client sends ``$/cancelRequest`` for ``msg_id``.

        Returns a function that removes the hook.  A cancel that arrived
        before the hook was registered calls it at once.
        """
        if msg_id in self._early_cancels:
            self._early_cancels.remove(msg_id)
            self._call_cancel_hook(hook)
            return lambda: None
        self._cancel_hooks[msg_id] = hook

        def remove() -> None:
            if self._cancel_hooks.get(msg_id) is hook:
                del self._cancel_hooks[msg_id]

        return remove

    def request_cancelled(self, msg_id: Any) -> None:
        hook = self._cancel_hooks.pop(msg_id, None)
        if hook is None:
            self._early_cancels = (self._early_cancels + [msg_id])[-64:]
            return
        self._call_cancel_hook(hook)

    def _call_cancel_hook(self, hook: Callable[[], None]) -> None:
        try:
            hook()
        except Exception as exc:  # noqa: BLE001 (isolation)
            self.report_error("core", "$/cancelRequest", exc)

    def change_arrived(self, uri: str) -> None:
        self._dispatch("change_arrived", uri)

    def edited(self, uri: str, edit: LineEdit) -> None:
        self._dispatch("edited", uri, edit)

    # -- documents ----------------------------------------------------------

    def document(self, uri: str) -> Any:
        """The open document for ``uri``, else None.

        pygls keys documents by the *unquoted* URI (``%20`` -> space), while
        clients send quoted ones: every lookup goes through here.
        """
        return self.workspace.text_documents.get(unquote(uri))

    def open_text(self, uri: str) -> Optional[str]:
        """The editor's text of an open document, else None."""
        doc = self.document(uri)
        return doc.source if doc is not None else None

    def client_units(self, text: str) -> int:
        """Length of ``text`` in the negotiated position encoding (UTF-16 by default)."""
        return self.workspace.position_codec.client_num_units(text)

    def supports(self, dotted: str) -> bool:
        """A boolean client capability, e.g. ``window.work_done_progress``."""
        node: Any = self.client_capabilities
        for part in dotted.split("."):
            node = getattr(node, part, None)
            if node is None:
                return False
        return bool(node)

    def _install_signal_handlers(self) -> None:
        """SIGTERM/SIGHUP: stop the features (runs kill their process trees), then leave.

        Python's default would end the server on the spot and leave runs,
        which live in process groups of their own, running; a plain
        ``sys.exit`` would hang joining the thread blocked on stdin.
        """
        loop = asyncio.get_running_loop()

        def leave(signum: int) -> None:
            async def stop() -> None:
                try:
                    await asyncio.wait_for(self._dispatch_async("shutdown"), 5.0)
                finally:
                    logging.shutdown()
                    os._exit(128 + signum)

            asyncio.ensure_future(stop())

        for name in ("SIGTERM", "SIGHUP"):
            signum = getattr(signal, name, None)
            if signum is None:
                continue
            try:
                loop.add_signal_handler(signum, leave, int(signum))
            except (NotImplementedError, RuntimeError, ValueError):  # Windows, not the main thread
                pass

    # -- LSP lifecycle and documents, fanned out to the features ------------

    def _register_core_handlers(self) -> None:
        fm = self.protocol.fm

        @fm.feature(types.INITIALIZE)
        def _initialize(params: types.InitializeParams) -> None:
            self._install_signal_handlers()
            # From now on the client's log, not stderr: LSP allows window/logMessage during
            # initialize, and waiting for `initialized` would race messages read right after it.
            if self.log_handler is not None:
                self.log_handler.connected = True
            self._dispatch("initialize", params)

        @fm.feature(types.INITIALIZED)
        async def _initialized(params: types.InitializedParams) -> None:
            await self._dispatch_async("initialized")

        @fm.feature(types.TEXT_DOCUMENT_DID_OPEN)
        def _did_open(params: types.DidOpenTextDocumentParams) -> None:
            self._dispatch("document_open", params.text_document.uri)

        @fm.feature(types.TEXT_DOCUMENT_DID_CHANGE)
        def _did_change(params: types.DidChangeTextDocumentParams) -> None:
            self._dispatch("document_change", params.text_document.uri)

        @fm.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
        def _did_save(params: types.DidSaveTextDocumentParams) -> None:
            self._dispatch("document_save", params.text_document.uri)

        @fm.feature(types.TEXT_DOCUMENT_DID_CLOSE)
        def _did_close(params: types.DidCloseTextDocumentParams) -> None:
            self._dispatch("document_close", params.text_document.uri)

        @fm.feature(types.SHUTDOWN)
        async def _shutdown(params: None) -> None:
            await self._dispatch_async("shutdown")


def _plain(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A copy of ``fn`` whose signature pygls reads as ``(*args)``.

    pygls injects the server when the first parameter is named ``ls`` or
    annotated with the server type, and structures command arguments by the
    signature's annotations; features take raw JSON instead.
    """
    if asyncio.iscoroutinefunction(fn):
        async def plain_async(*args):
            return await fn(*args)

        return plain_async

    def plain(*args):
        return fn(*args)

    return plain


def create_server() -> TapewatchServer:
    """The server with every feature that set up without error."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    server = TapewatchServer()
    from .log import install  # noqa: PLC0415

    server.log_handler = install(server)
    errors: List[str] = []
    for name in FEATURE_MODULES:
        try:
            module = importlib.import_module("%s.%s" % (__package__, name))
            module.setup(server)
        except Exception as exc:
            logger.exception("feature %s failed to set up", name)
            errors.append("%s: %s: %s" % (name, type(exc).__name__, exc))
    if errors:
        server.add_feature(_StartupErrors(server, errors))
    return server


class _StartupErrors(Feature):
    """Tells the client which features are missing once it can listen."""

    name = "startup-errors"

    def __init__(self, server: TapewatchServer, errors: List[str]):
        super().__init__(server)
        self.errors = errors

    def initialized(self) -> None:
        for line in self.errors:
            self.server.log("tapewatch: feature unavailable: " + line, types.MessageType.Error)


__all__ = ["Feature", "TapewatchServer", "create_server", "uris"]
