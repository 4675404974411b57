"""The ``node-properties`` retrieval tool: property values of the question's entities and of the
end nodes of the proposed relation paths (see :mod:`byokg.plugins.offline.property_facts`)."""

from __future__ import annotations

from pydantic import Field

from byokg.contracts import ContextItem
from byokg.language.text import count_tokens
from byokg.pipeline.tools import Tool
from byokg.pipeline.tools import ToolParams
from byokg.pipeline.tools import ToolRequest
from byokg.pipeline.tools import ToolResult


class NodePropertiesParams(ToolParams):
    max_relation_paths: int = Field(3, ge=0, description="proposed paths whose end nodes are read")
    max_nodes: int = Field(60, ge=1, description="nodes whose properties are read")
    fanout_per_hop: int = Field(50, ge=1, description="edges followed per node per hop")
    max_facts: int = Field(40, ge=1, description="property values returned at most")
    max_tokens: int = Field(800, ge=0, description="token budget of this tool's context text")


class NodePropertiesTool(Tool):
    name = "node-properties"
    description = ("Property values (dates, numbers, text) of the linked entities and of the end "
                   "nodes of the proposed relation paths, ranked by how well their names match "
                   "the question (typed graphs keep such facts on nodes, not edges)")
    Params = NodePropertiesParams
    needs = frozenset({"entities"})

    def retrieve(self, request: ToolRequest, p: NodePropertiesParams, result: ToolResult) -> None:
        from byokg.plugins.offline.property_facts import has_node_properties
        from byokg.plugins.offline.property_facts import property_facts

        ents = request.entity_ids
        if not has_node_properties(request.graph_profile()):
            result.event(self.name, "the graph keeps no node properties besides names")
            return
        paths = list(request.artifacts.relation_paths)[: p.max_relation_paths]
        facts, counts = property_facts(request.store, request.similarity, ents, paths,
                                       max_nodes=p.max_nodes,
                                       fanout_per_hop=p.fanout_per_hop, max_facts=p.max_facts)
        result.counts.update(counts)
        used = 0
        for f in facts:
            text = f"{f.name} · {f.property}: {f.value}"
            cost = count_tokens(text) + 1
            if used + cost > p.max_tokens:
                result.counts["facts_omitted"] = result.counts.get("facts_omitted", 0) + 1
                continue
            used += cost
            result.items.append(ContextItem(
                text=text, tool=self.name, iteration=request.iteration, kind="property",
                score=f.relevance, nodes=(f.node,),
                metadata={"node": f.node, "property": f.property, "value": f.value,
                          "value_type": f.value_type, "relation_path": f.relation_path}))
        if result.counts.get("facts_omitted"):
            result.event(self.name, f"max_tokens={p.max_tokens}: "
                         f"{result.counts['facts_omitted']} value(s) left out")
