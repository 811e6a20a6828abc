#!/usr/bin/env python3
"""Dump Laktory's model schema into workspace/laktoryschema/schema.json.

Dev-only: the product never runs Python. The workspace decoder takes its
allowed keys, enum values, required fields and defaults from the file this
script writes (embedded at build time), so upgrading Laktory is: install the
new version, run this script, read the diff of schema.json, adapt the decoder
and the tests.

    python3 -m venv /tmp/lk && /tmp/lk/bin/pip install laktory==0.13.1
    /tmp/lk/bin/python scripts/laktory-schema.py

For each model the decoder reads, it records from `model_json_schema()`
(validation mode) and `model_fields`:
  keys      every key pydantic accepts (field names and validation aliases,
            as models use populate_by_name)
  required  keys without a default
  enums     the Literal values of a field (the `${...}` variable pattern that
            every field also accepts is left out)
  defaults  JSON-serialisable defaults of scalar fields
  discriminator  the field whose Literal tells the union members apart
"""

import importlib
import json
import pathlib
import sys

import laktory

MODELS = {
    "Pipeline": "laktory.models.pipeline.pipeline",
    "PipelineNode": "laktory.models.pipeline.pipelinenode",
    "PipelineParameter": "laktory.models.pipeline.pipelineparameter",
    "FileDataSource": "laktory.models.datasources.filedatasource",
    "UnityCatalogDataSource": "laktory.models.datasources.unitycatalogdatasource",
    "HiveMetastoreDataSource": "laktory.models.datasources.hivemetastoredatasource",
    "PipelineNodeDataSource": "laktory.models.datasources.pipelinenodedatasource",
    "DataFrameDataSource": "laktory.models.datasources.dataframedatasource",
    "CustomDataSource": "laktory.models.datasources.customdatasource",
    "CustomReader": "laktory.models.datasources.customreader",
    "FileDataSink": "laktory.models.datasinks.filedatasink",
    "UnityCatalogDataSink": "laktory.models.datasinks.unitycatalogdatasink",
    "HiveMetastoreDataSink": "laktory.models.datasinks.hivemetastoredatasink",
    "PipelineViewDataSink": "laktory.models.datasinks.pipelineviewdatasink",
    "CustomWriter": "laktory.models.datasinks.customwriter",
    "DataSinkSharedOptions": "laktory.models.datasinks.sharedoptions",
    "DataSinkMergeCDCOptions": "laktory.models.datasinks.mergecdcoptions",
    "TableDataSinkMetadata": "laktory.models.datasinks.tabledatasinkmetadata",
    "DataFrameTransformer": "laktory.models.dataframe.dataframetransformer",
    "DataFrameExpr": "laktory.models.dataframe.dataframeexpr",
    "DataFrameMethod": "laktory.models.dataframe.dataframemethod",
    "DataQualityExpectation": "laktory.models.dataquality.expectation",
    "DataFrameColumnExpr": "laktory.models.dataframe.dataframecolumnexpr",
    "ExpectationTolerance": "laktory.models.dataquality.expectation",
    "DataFrameSchema": "laktory.models.dataframe.dataframeschema",
    "DataFrameColumn": "laktory.models.dataframe.dataframecolumn",
    "ReaderWriterMethod": "laktory.models.readerwritermethod",
    "LakeflowJobOrchestrator": "laktory.models.pipeline.orchestrators.lakeflowjoborchestrator",
    "LakeflowDeclarativePipelineOrchestrator": "laktory.models.pipeline.orchestrators.lakeflowdeclarativepipelineorchestrator",
    "SparkDeclarativePipelineOrchestrator": "laktory.models.pipeline.orchestrators.sparkdeclarativepipelineorchestrator",
    "AirflowOrchestrator": "laktory.models.pipeline.orchestrators.airfloworchestrator",
    "Stack": "laktory.models.stacks.stack",
    "StackResources": "laktory.models.stacks.stack",
    "EnvironmentSettings": "laktory.models.stacks.stack",
    "LaktorySettings": "laktory.models.stacks.stack",
}

VAR_PATTERN = "^\\$\\{"


def literals(prop, defs):
    """Literal values of a property's JSON schema, without the variable form."""
    if "$ref" in prop:
        return literals(defs.get(prop["$ref"].split("/")[-1], {}), defs)
    out = []
    if "const" in prop:
        out.append(prop["const"])
    out += prop.get("enum", [])
    for sub in prop.get("anyOf", []) + prop.get("oneOf", []) + prop.get("allOf", []):
        if sub.get("pattern") == VAR_PATTERN:
            continue
        out += literals(sub, defs)
    return out


def accepted_keys(cls):
    keys = []
    for name, f in cls.model_fields.items():
        keys.append(name)
        alias = f.validation_alias
        if alias is None:
            if f.alias:
                keys.append(f.alias)
        elif isinstance(alias, str):
            keys.append(alias)
        else:
            keys += [c for c in alias.choices if isinstance(c, str)]
    return sorted(set(keys))


def model_entry(cls):
    schema = cls.model_json_schema(mode="validation")
    props = schema.get("properties", {})
    enums, defaults, discriminator = {}, {}, None
    for key, prop in sorted(props.items()):
        vals = [v for v in literals(prop, schema.get("$defs", {})) if v is not None]
        if vals and all(isinstance(v, str) for v in vals):
            enums[key] = sorted(set(vals))
            if len(vals) == 1 and key == "type":
                discriminator = key
        d = prop.get("default")
        if isinstance(d, (str, int, float, bool)) and not isinstance(d, dict):
            defaults[key] = d
    entry = {
        "keys": accepted_keys(cls),
        "required": sorted(schema.get("required", [])),
        "enums": enums,
        "defaults": defaults,
        "extra": cls.model_config.get("extra"),
    }
    if discriminator:
        entry["discriminator"] = discriminator
    return entry


def main():
    out = {"laktory_version": laktory.__version__, "models": {}}
    for name, module in MODELS.items():
        cls = getattr(importlib.import_module(module), name)
        out["models"][name] = model_entry(cls)
    dest = pathlib.Path(__file__).resolve().parent.parent / "workspace" / "laktoryschema" / "schema.json"
    if len(sys.argv) > 1:
        dest = pathlib.Path(sys.argv[1])
    dest.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {dest} (Laktory {laktory.__version__}, {len(out['models'])} models)")


if __name__ == "__main__":
    main()
