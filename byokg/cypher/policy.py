"""What a read-only query may call: functions and procedures per dialect.

Both lists are allow-lists: a function or procedure the guard does not know is refused with a
message naming it (the repair loop passes that to the LLM). Function names are compared in
lower case; dotted names (``duration.between``, ``apoc.text.join``) must match an entry exactly
or start with an allowed namespace (``apoc.text.``). Nothing here runs Cypher, touches files or
the network, changes settings or advances a sequence: ``apoc.cypher.*``, ``apoc.load.*``,
ArcadeDB's ``sql.*``, Neptune's ``neptune.read``, Kùzu's ``nextval`` and table functions that
read files (``read_csv`` …) or build indexes are absent on purpose.
"""

from __future__ import annotations

from collections.abc import Iterable

# openCypher / Neo4j 5 scalar, aggregate, list, string, math and temporal functions.
_NEO4J = """
abs acos all any asin atan atan2 avg btrim ceil char_length character_length coalesce collect
cos cot count date datetime degrees duration e elementid endnode exists exp floor haversin head
id isempty isnan keys labels last left length localdatetime localtime log log10 lower ltrim max
min nodes none normalize nullif percentilecont percentiledisc pi point properties radians rand
randomuuid range reduce relationships replace reverse right round rtrim sign sin single size
split sqrt startnode stdev stdevp substring sum tail tan time toboolean tobooleanlist
tobooleanornull tofloat tofloatlist tofloatornull tointeger tointegerlist tointegerornull
tolower tostring tostringlist tostringornull toupper trim type upper valuetype cosh sinh tanh
coth isinf sort shortestpath allshortestpaths
"""
# Kùzu 0.11 scalar, aggregate and rewrite functions (``CALL show_functions()``), minus the ones
# with side effects (nextval) or that raise on purpose (error).
_KUZU = """
abs acos all any array_append array_cat array_concat array_contains array_cosine_similarity
array_cross_product array_distance array_dot_product array_extract array_has array_indexof
array_inner_product array_position array_prepend array_push_back array_push_front array_slice
array_squared_distance array_to_json array_value asin atan atan2 avg bitshift_left
bitshift_right bitwise_and bitwise_or bitwise_xor blob cardinality cast cast_to_json cbrt ceil
ceiling century coalesce collect concat concat_ws constant_or_null contains cos cost cot count
count_if count_star current_date current_timestamp currval date date_part date_trunc datepart
datetrunc dayname decode degrees duration element_at encode end_node ends_with epoch_ms equals
even factorial floor gamma gen_random_uuid greater_than greater_than_equals greatest hash id
ifnull initcap internal_id interval is_acyclic is_trail json json_array json_array_length
json_contains json_extract json_keys json_merge_patch json_object json_quote json_structure
json_valid keys label labels last_day lcase least left length less_than less_than_equals
levenshtein lgamma list_any_value list_append list_cat list_concat list_contains list_creation
list_distinct list_element list_extract list_filter list_has list_has_all list_indexof
list_position list_prepend list_product list_reduce list_reverse list_reverse_sort list_slice
list_sort list_sum list_to_string list_transform list_unique ln log log10 log2 lower lpad ltrim
make_date map map_extract map_keys map_values max md5 min monthname negate nodes none
not_equals nullif octet_length offset pi pow prefix properties radians range regexp_extract
regexp_extract_all regexp_full_match regexp_matches regexp_replace regexp_split_to_array
relationships rels repeat reverse right round row_to_json rpad rtrim sha256 sign sin single
size split_part sqrt start_node starts_with stem str_split string string_split string_to_array
struct_extract struct_pack substr substring suffix sum tan timestamp to_blob to_bool to_date
to_days to_double to_epoch_ms to_float to_hours to_int128 to_int16 to_int32 to_int64 to_int8
to_interval to_json to_microseconds to_milliseconds to_minutes to_months to_seconds to_serial
to_string to_timestamp to_uint16 to_uint32 to_uint64 to_uint8 to_uuid to_years tolower toupper
trim typeof ucase union_extract union_tag union_value upper uuid
"""
# Neptune openCypher extensions (read-only ones; ``neptune.read`` reads S3 and is not here).
_NEPTUNE = """
join textindexof tolist colltoset collmax collmin collsortmaps collsortmulti collsort
removekeyfrommap epochmillis
"""
# FalkorDB 4 functions (``CALL dbms.functions()``) the lists above lack; all compute values.
_FALKORDB = """
hasLabels indegree outdegree tojson tomap topath typeof vecf32 stdev stdevp
"""
# Dotted functions and namespaces that only compute values.
_DOTTED = """
date.truncate date.realtime date.statement date.transaction datetime.truncate
datetime.fromepoch datetime.fromepochmillis datetime.realtime datetime.statement
datetime.transaction localdatetime.truncate localdatetime.realtime localdatetime.statement
localdatetime.transaction localtime.truncate localtime.realtime localtime.statement
localtime.transaction time.truncate time.realtime time.statement time.transaction
duration.between duration.indays duration.inmonths duration.inseconds point.distance
point.withinbbox vector.similarity.cosine vector.similarity.euclidean db.namefromelementid
apoc.util.md5 apoc.util.sha1 apoc.util.sha256 apoc.util.sha384 apoc.util.sha512
apoc.node.degree apoc.node.degree.in apoc.node.degree.out apoc.node.labels apoc.node.id
apoc.node.relationship.exists apoc.node.relationship.types apoc.rel.id apoc.rel.type
apoc.rel.startnode apoc.rel.endnode apoc.any.properties apoc.any.property
apoc.label.exists
list.dedup list.insert list.insertlistelements list.remove list.sort string.join
string.matchregex string.replaceregex vec.cosinedistance vec.euclideandistance
"""
_NAMESPACES = (
    "apoc.text.", "apoc.coll.", "apoc.map.", "apoc.convert.", "apoc.date.", "apoc.temporal.",
    "apoc.number.", "apoc.math.", "apoc.agg.", "apoc.scoring.", "apoc.hashing.",
    "apoc.bitwise.", "apoc.meta.cypher.",
)

_COMMON = (frozenset(_NEO4J.split()) | frozenset(_KUZU.split()) | frozenset(_NEPTUNE.split())
           | frozenset(_FALKORDB.lower().split()))
FUNCTIONS: frozenset[str] = _COMMON | frozenset(_DOTTED.split())

# Read-only procedures per dialect (lower case). Unknown procedures are rejected.
_NEO4J_PROCS = {
    "db.labels", "db.relationshiptypes", "db.propertykeys", "db.schema.visualization",
    "db.schema.nodetypeproperties", "db.schema.reltypeproperties", "db.indexes",
    "db.index.fulltext.querynodes", "db.index.fulltext.queryrelationships",
    "db.index.vector.querynodes", "db.index.vector.queryrelationships", "db.info",
    "db.ping", "dbms.components", "apoc.meta.schema", "apoc.meta.data", "apoc.meta.stats",
    "apoc.meta.graph", "apoc.meta.nodetypeproperties", "apoc.meta.reltypeproperties",
    "db.constraints",
}  # fmt: skip
_KUZU_PROCS = {
    "show_tables", "table_info", "show_connection", "show_functions", "show_indexes",
    "show_sequences", "show_attached_databases", "show_loaded_extensions",
    "show_official_extensions", "db_version", "current_setting", "show_warnings",
    "query_fts_index", "query_vector_index", "show_projected_graphs", "stats_info",
    "storage_info", "show_macros", "catalog_version",
}  # fmt: skip
# FalkorDB: catalogue, index queries and the path-finding procedures that only read (``READ`` in
# ``CALL dbms.procedures()``); index creation and dropping are WRITE there and absent here.
_FALKORDB_PROCS = {
    "db.labels", "db.relationshiptypes", "db.propertykeys", "db.indexes", "db.constraints",
    "db.meta.stats", "db.idx.fulltext.querynodes", "db.idx.fulltext.queryrelationships",
    "db.idx.vector.querynodes", "db.idx.vector.queryrelationships", "algo.sppaths",
    "algo.sspaths", "algo.bfs",
}  # fmt: skip
_NEPTUNE_PROCS = {
    "neptune.graph.pg_schema", "neptune.algo.vectors.topkbyembedding",
    "neptune.algo.vectors.topkbynode", "neptune.algo.vectors.get",
    "neptune.algo.vectors.distance", "neptune.algo.vectors.distancebyembedding",
    "neptune.algo.vectors.topk.byembedding", "neptune.algo.vectors.topk.bynode",
}  # fmt: skip

PROCEDURES: dict[str, frozenset[str]] = {
    "neo4j": frozenset(_NEO4J_PROCS),
    "arcadedb": frozenset(_NEO4J_PROCS),
    "kuzu": frozenset(_KUZU_PROCS),
    "ladybug": frozenset(_KUZU_PROCS),
    "falkordb": frozenset(_FALKORDB_PROCS),
    "neptune-analytics": frozenset(_NEPTUNE_PROCS),
    "neptune-db": frozenset({"neptune.graph.pg_schema"}),
}

# Names refused even if a list above would allow them (defence in depth, with the reason).
REFUSED_FUNCTION_PREFIXES: tuple[tuple[str, str], ...] = (
    ("apoc.cypher.", "runs Cypher text"), ("apoc.periodic.", "runs Cypher text"),
    ("apoc.do.", "runs Cypher text"), ("apoc.load.", "reads files or URLs"),
    ("apoc.import.", "reads files"), ("apoc.export.", "writes files"),
    ("apoc.create.", "writes to the graph"), ("apoc.merge.", "writes to the graph"),
    ("apoc.refactor.", "writes to the graph"), ("apoc.trigger.", "installs triggers"),
    ("apoc.custom.", "defines procedures"), ("apoc.systemdb.", "administers the server"),
    ("apoc.util.sleep", "blocks the server"), ("apoc.xml.", "reads URLs"),
    ("sql.", "runs ArcadeDB SQL"), ("neptune.read", "reads S3 objects"),
    ("dbms.", "administers the server"), ("gds.", "runs graph algorithms that may write"),
)


def allowed_procedures(dialect: str | None, extra: Iterable[str] = ()) -> frozenset[str]:
    """The read-only procedure allow-list for ``dialect`` (lower-case names) plus ``extra``."""
    base = PROCEDURES.get((dialect or "neo4j").lower())
    if base is None:  # unknown dialect: the Neo4j introspection set
        base = PROCEDURES["neo4j"]
    return base | {e.lower() for e in extra}


def function_refusal(name: str) -> str | None:
    """Why the function ``name`` may not run (None when it is on the allow-list)."""
    low = name.lower()
    for prefix, why in REFUSED_FUNCTION_PREFIXES:
        if low.startswith(prefix) or low == prefix.rstrip("."):
            return f"function {name} is refused ({why})"
    if low in FUNCTIONS or ("." in low and low.startswith(_NAMESPACES)):
        return None
    return (f"function {name}() is not on the read-only function allow-list; use a standard "
            "Cypher function of this database")
