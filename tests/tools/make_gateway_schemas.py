"""Writes deploy/schemas/*.json, the JSON schemas `make deploy-check` holds the Gateway API manifests to, from the
Gateway API's own CRDs (kubernetes-sigs/gateway-api, config/crd/experimental/, whose HTTPRoute carries
sessionPersistence). Run with the CRD files of the release named in RELEASE:

    python tests/tools/make_gateway_schemas.py gateway.networking.k8s.io_gateways.yaml \
        gateway.networking.k8s.io_httproutes.yaml

Each schema is the CRD's openAPIV3Schema for the served version, with descriptions and the x-kubernetes-* keys (read
by the API server, not by a JSON-schema validator) left out, the status left out, and every object closed to unknown
fields, as `kubernetes-validate --strict` closes the built-in kinds.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

RELEASE = "v1.6.1"
VERSION = "v1"
OUT = Path(__file__).resolve().parents[2] / "deploy" / "schemas"
METADATA = {
    "type": "object",
    "required": ["name"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "namespace": {"type": "string"},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
    },
}


def closed(node):
    """The schema without prose or API-server keys, every object with properties refusing others."""
    if isinstance(node, list):
        return [closed(item) for item in node]
    if not isinstance(node, dict):
        return node
    kept = {key: closed(value) for key, value in node.items() if key != "description" and not key.startswith("x-")}
    if "properties" in node and "additionalProperties" not in node:
        kept["additionalProperties"] = False
    return kept


def schema_of(crd: dict, source: str) -> dict:
    (version,) = [v for v in crd["spec"]["versions"] if v["name"] == VERSION]
    spec = closed(version["schema"]["openAPIV3Schema"]["properties"]["spec"])
    group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$comment": f"Extracted from the Gateway API's CRD {source}, release {RELEASE}, channel "
        f"{crd['metadata']['annotations']['gateway.networking.k8s.io/channel']}, version {VERSION} "
        "(github.com/kubernetes-sigs/gateway-api): tests/tools/make_gateway_schemas.py.",
        "title": f"{kind} {group}/{VERSION}",
        "type": "object",
        "required": ["apiVersion", "kind", "metadata", "spec"],
        "additionalProperties": False,
        "properties": {
            "apiVersion": {"const": f"{group}/{VERSION}"},
            "kind": {"const": kind},
            "metadata": METADATA,
            "spec": spec,
        },
    }


def main(paths: list[str]) -> None:
    for path in paths:
        crd = yaml.safe_load(Path(path).read_text())
        schema = schema_of(crd, f"config/crd/experimental/{Path(path).name}")
        out = OUT / f"{crd['spec']['names']['singular']}.{VERSION}.json"
        out.write_text(json.dumps(schema, indent=1, sort_keys=True) + "\n")
        print(f"{out}: {out.stat().st_size} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
