"""The MCP server: graphmem's tools over stdio, with the official MCP SDK's low-level server.

The low-level server is used so that each tool's input schema is exactly its pydantic model's
(unknown arguments refused) and every refusal comes back as an error result in graphmem's own
words. One server process holds its store for its lifetime; tool calls run one at a time in a
worker thread, so the event loop stays free while the store works.

A line on stdin that is not a JSON-RPC message is answered with a JSON-RPC error (-32700 for
text that is not JSON, -32600 for JSON that is not a request, with the request's id when it
has one), so a client never waits for an answer to it; the SDK alone would only log it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterable
from functools import partial

import anyio
import anyio.to_thread
from anyio.streams.memory import MemoryObjectSendStream
from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.shared._stream_protocols import WriteStream
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from .. import __version__
from .._store import Store
from ..errors import GraphmemError
from ..extract import Extractor
from .tools import TOOLS, Tools, ToolSpec, for_tools

__all__ = ["build_server", "serve"]

logger = logging.getLogger("graphmem.mcp")

#: The actor recorded when a client does not say its name.
UNKNOWN_CLIENT = "unknown client"

INSTRUCTIONS = """\
graphmem is a memory that keeps its own history. Each fact (subject, predicate, object) has a
valid time (when it was true in the world) and a transaction time (when the memory believed it).
Use remember for what the user says (facts wait for review unless approve is true), add/end for
facts you know, correct/retract for mistakes. Ask beliefs or recall with as_of to see what the
memory held at a past moment, history for how a fact changed, why for what changed an answer.
Times are ISO 8601 (2026-10-15 or 2026-10-15T09:30:00Z)."""


def client_name(ctx: ServerRequestContext) -> str:
    """The calling client's name, from its initialize request (clientInfo.name)."""
    params = ctx.session.client_params
    name = params.client_info.name if params is not None and params.client_info else None
    return name.strip() if name and name.strip() else UNKNOWN_CLIENT


def describe(spec: ToolSpec) -> types.Tool:
    """The protocol's description of one tool: schemas from its models, hints from what it does."""
    return types.Tool(
        name=spec.name,
        description=spec.description,
        input_schema=spec.input.model_json_schema(),
        output_schema=spec.output.model_json_schema(mode="serialization"),
        annotations=types.ToolAnnotations(
            read_only_hint=not spec.writes, destructive_hint=False, idempotent_hint=not spec.writes,
            open_world_hint=False,
        ),
    )


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)


def build_server(tools: Tools) -> Server:
    """A low-level MCP server offering ``tools``, calls run one at a time in a worker thread."""
    listed = [describe(spec) for spec in TOOLS.values()]
    one_at_a_time = anyio.CapacityLimiter(1)

    async def list_tools(ctx: ServerRequestContext,
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
        run = partial(tools.call, params.name, dict(params.arguments or {}), client_name(ctx))
        try:
            result = await anyio.to_thread.run_sync(run, limiter=one_at_a_time)
        except GraphmemError as exc:
            return _error(f"error: {for_tools(str(exc))}")
        except Exception as exc:
            logger.exception("tool %s failed", params.name)
            return _error(f"error: unexpected {type(exc).__name__}: {exc}")
        data = result.model_dump(mode="json")
        text = json.dumps(data, ensure_ascii=False)
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                    structured_content=data)

    return Server("graphmem", version=__version__, title="graphmem", instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=call_tool)


PARSE_ERROR, INVALID_REQUEST = -32700, -32600


def invalid_message_error(exc: Exception) -> types.JSONRPCError | None:
    """The JSON-RPC error answering a line the transport could not read as a message (None for a
    blank line, which asks nothing): a parse error, or an invalid request with its id if it has one."""
    if not isinstance(exc, ValidationError):
        return types.JSONRPCError(jsonrpc="2.0", id=None, error=types.ErrorData(
            code=INVALID_REQUEST, message=f"Invalid Request: {type(exc).__name__}"))
    problems = exc.errors()
    if any(p["type"] == "json_invalid" for p in problems):
        if not str(problems[0].get("input", "x")).strip():
            return None
        return types.JSONRPCError(jsonrpc="2.0", id=None, error=types.ErrorData(
            code=PARSE_ERROR, message="Parse error: not JSON"))
    inputs = [p.get("input") for p in problems]
    ids = [i["id"] for i in inputs if isinstance(i, dict) and isinstance(i.get("id"), str | int)
           and not isinstance(i.get("id"), bool)]
    return types.JSONRPCError(jsonrpc="2.0", id=ids[0] if ids else None, error=types.ErrorData(
        code=INVALID_REQUEST, message="Invalid Request: not a JSON-RPC 2.0 message"))


async def _answer_invalid(incoming: AsyncIterable[SessionMessage | Exception],
                          forward: MemoryObjectSendStream[SessionMessage],
                          outgoing: WriteStream[SessionMessage]) -> None:
    """Pass the transport's messages on to the server; answer each line it could not read."""
    async with forward:
        async for item in incoming:
            if isinstance(item, Exception):
                error = invalid_message_error(item)
                if error is not None:
                    await outgoing.send(SessionMessage(error))
                continue
            await forward.send(item)


async def serve_stdio(tools: Tools) -> None:
    """Serve ``tools`` over this process's stdin and stdout until the client disconnects."""
    server = build_server(tools)
    async with stdio_server() as (read_stream, write_stream):
        forward, checked = anyio.create_memory_object_stream[SessionMessage](0)
        async with anyio.create_task_group() as group:
            group.start_soon(_answer_invalid, read_stream, forward, write_stream)
            await server.run(checked, write_stream, server.create_initialization_options())


def serve(store: Store, extractor: Extractor | None = None) -> None:
    """Serve ``store`` over stdio until the client disconnects (the store stays open meanwhile)."""
    logging.basicConfig(level=logging.WARNING, format="graphmem mcp: %(levelname)s %(message)s")
    anyio.run(serve_stdio, Tools(store, extractor))
