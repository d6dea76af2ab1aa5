import {{name}}

// Usage: {{name.kebab_case}} [NAME]
let arguments = CommandLine.arguments.dropFirst()
print({{name}}().greeting(for: arguments.first ?? {{name}}.defaultName))
