print("folio-bench")
