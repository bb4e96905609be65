"""The Kaggle client as MLE-bench v1's callers know it: errors are ``kaggle.rest.ApiException``.

v1 pins ``kaggle>=1.6,<1.7``, whose generated client raises ``kaggle.rest.ApiException`` (``status``,
``reason``, ``body``, ``headers``; ``str()`` shows the status, the reason and the body) for every HTTP error,
and harnesses catch it by that name: inspect_evals' rules check (``from kaggle.rest import ApiException``,
``e.status``, ``"You must accept" in str(e)``) and v1's own ``download_dataset``. kaggle 2.x has no
``kaggle.rest``: its errors are requests' ``HTTPError``.

:func:`v1_client` gives v1's contract on either release. On 1.6 the client is returned as it is. On 2.x, a
module ``kaggle.rest`` holding :class:`ApiException` is registered in ``sys.modules`` (the installed kaggle
package's files are not touched, and a real ``kaggle.rest`` always wins), and the client is wrapped so that
each call's ``HTTPError`` is raised as that :class:`ApiException`, its body the JSON Kaggle answered.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable
from typing import Any

__all__ = ["ApiException", "V1Client", "rest_module", "v1_client"]


class ApiException(Exception):  # noqa: N818 - kaggle 1.6's name, which callers catch
    """An HTTP error of the Kaggle API, with the fields of kaggle 1.6's ``kaggle.rest.ApiException``."""

    def __init__(
        self,
        status: int | None = None,
        reason: str | None = None,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(status, reason)
        self.status, self.reason, self.body, self.headers = status, reason, body, headers

    def __str__(self) -> str:
        """Status, reason, headers and body on their lines, as 1.6 prints them."""
        text = f"({self.status})\nReason: {self.reason}\n"
        if self.headers:
            text += f"HTTP response headers: {self.headers}\n"
        if self.body:
            text += f"HTTP response body: {self.body}\n"
        return text


def rest_module() -> types.ModuleType:
    """Return ``kaggle.rest``: the installed client's (1.6), else this module's stand-in, registered."""
    importlib.import_module("kaggle")
    try:
        return importlib.import_module("kaggle.rest")
    except ModuleNotFoundError:
        module = types.ModuleType("kaggle.rest", "kaggle 1.6's error type, for callers written against it")
        module.ApiException = ApiException  # type: ignore[attr-defined]
        sys.modules["kaggle.rest"] = module
        sys.modules["kaggle"].rest = module  # type: ignore[attr-defined]
        return module


class V1Client:
    """A kaggle 2.x ``KaggleApi`` whose calls raise :class:`ApiException` for the client's HTTPError."""

    def __init__(self, api: Any) -> None:
        self._api = api

    def __getattr__(self, name: str) -> Any:
        """Return the client's attribute; a method is wrapped to translate its HTTP errors."""
        value = getattr(self._api, name)
        return _translating(value) if callable(value) else value

    def __setattr__(self, name: str, value: Any) -> None:
        """Set the client's own attribute (``_api`` stays on the wrapper)."""
        if name == "_api":
            object.__setattr__(self, name, value)
        else:
            setattr(self._api, name, value)


def _translating(method: Callable[..., Any]) -> Callable[..., Any]:
    import functools

    import requests

    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except requests.HTTPError as exc:
            response = exc.response
            if response is None:
                raise
            body = response.content or str(exc).encode()
            raise ApiException(response.status_code, response.reason, body, dict(response.headers)) from exc

    return call


def v1_client(api: Any) -> Any:
    """Return ``api`` with v1's error contract: as it is on kaggle 1.6, wrapped (:class:`V1Client`) on 2.x."""
    rest = rest_module()
    return api if rest.ApiException is not ApiException else V1Client(api)
