"""Built-in evaluation datasets, registered through the ``register_datasets`` hook."""

from __future__ import annotations

from byokg.hookspecs import hookimpl


@hookimpl
def register_datasets(register):
    from byokg.eval import datasets as ds
    from byokg.eval import subgraphs as sg

    register("webqsp", ds.load_webqsp)
    register("cwq", ds.load_cwq)
    register("northwind", ds.load_northwind, needs_store=True)
    register("jsonl", ds.load_generic_jsonl)
    # one Freebase subgraph per question (RoG's release); no --graph
    register("rog-webqsp", sg.load_rog_webqsp, per_question_graphs=True)
    register("rog-cwq", sg.load_rog_cwq, per_question_graphs=True)
