"""A consumer of the published spec outside TypeScript: Python's reference JSON Schema engine, jsonschema, as
Debian packages it (python3-jsonschema), reads the bundled spec users download and

- validates every example in it against its schema: request and response examples (named or referenced) and the
  `examples` of every schema;
- compiles every `pattern` of the spec with Python's `re`;
- judges every request vector of spec/test-vectors/requests with the request schema of its operation: each valid
  vector's body as a server works with it (`normalized`, else `body`), and each invalid vector's body.

Usage: python3 consumer.py <bundled openapi.json> <request-vectors folder>. Prints one JSON report on stdout;
spec/test/python-consumer.test.ts reads it. Only the standard library and jsonschema are used.
"""

import json
import os
import re
import sys
from importlib.metadata import version

from jsonschema import Draft202012Validator, RefResolver


def load(path):
    with open(path, encoding="utf-8") as file:
        return json.load(file)


spec = load(sys.argv[1])
vectors_folder = sys.argv[2]
# The schemas' `$ref`s point into the document (#/components/...): resolve them against it.
resolver = RefResolver.from_schema(spec)


def follow(node):
    """A Response, Example or Request Body object with its `$ref` followed."""
    while isinstance(node, dict) and "$ref" in node:
        node = resolver.resolve(node["$ref"])[1]
    return node


def errors_of(schema, instance):
    validator = Draft202012Validator(schema, resolver=resolver)
    return [f"{'/'.join(map(str, error.absolute_path))}: {error.message}" for error in validator.iter_errors(instance)]


def media_examples(where, content):
    """Examples of each media type of a request body or response, with the schema they illustrate."""
    for media_type, media in (content or {}).items():
        if "example" in media:
            yield f"{where} {media_type} example", media["schema"], media["example"]
        for name, example in (media.get("examples") or {}).items():
            yield f"{where} {media_type} examples/{name}", media["schema"], follow(example)["value"]


def schema_examples(where, schema):
    """The `examples` of a schema and of every schema inside it."""
    if not isinstance(schema, dict):
        return
    for index, example in enumerate(schema.get("examples") or []):
        yield f"{where} examples/{index}", schema, example
    for name, child in (schema.get("properties") or {}).items():
        yield from schema_examples(f"{where}/properties/{name}", child)
    for keyword in ("items", "additionalProperties"):
        yield from schema_examples(f"{where}/{keyword}", schema.get(keyword))


def operations():
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "operationId" in operation:
                yield f"{method.upper()} {path}", operation


def all_examples():
    for name, operation in operations():
        yield from media_examples(f"{operation['operationId']} request", follow(operation["requestBody"])["content"])
        for status, response in operation["responses"].items():
            yield from media_examples(f"{operation['operationId']} {status}", follow(response).get("content"))
    for name, schema in spec["components"]["schemas"].items():
        yield from schema_examples(f"#/components/schemas/{name}", schema)


def request_schemas():
    return {
        operation["operationId"]: follow(operation["requestBody"])["content"]["application/json"]["schema"]
        for _, operation in operations()
    }


def vector_reports():
    schemas = request_schemas()
    for file_name in sorted(os.listdir(vectors_folder)):
        operation_id = file_name.removesuffix(".json")
        for vector in load(os.path.join(vectors_folder, file_name)):
            if "body" not in vector:
                continue  # raw bytes that are not one JSON value: a matter of the JSON parser, not of a schema
            body = vector.get("normalized", vector["body"]) if vector["valid"] else vector["body"]
            errors = errors_of(schemas[operation_id], body)
            yield {
                "operation": operation_id,
                "description": vector["description"],
                "valid": vector["valid"],
                "accepted": not errors,
                "errors": errors[:3],
            }


def patterns(node):
    """Every `pattern` keyword value in the document."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                yield value
            else:
                yield from patterns(value)
    elif isinstance(node, list):
        for item in node:
            yield from patterns(item)


def compile_error(pattern):
    try:
        re.compile(pattern)
        return None
    except re.error as error:
        return str(error)


report = {
    "jsonschema": version("jsonschema"),
    "patterns": [{"pattern": pattern, "error": compile_error(pattern)} for pattern in sorted(set(patterns(spec)))],
    "examples": [{"where": where, "errors": errors_of(schema, value)} for where, schema, value in all_examples()],
    "vectors": list(vector_reports()),
}
json.dump(report, sys.stdout, ensure_ascii=True)
