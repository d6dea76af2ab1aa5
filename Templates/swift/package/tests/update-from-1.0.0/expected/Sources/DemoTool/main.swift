import Demo

// Usage: demo [NAME]
let arguments = CommandLine.arguments.dropFirst()
print(Demo().greeting(for: arguments.first ?? Demo.defaultName))
