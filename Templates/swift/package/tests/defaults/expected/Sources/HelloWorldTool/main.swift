import HelloWorld

// Usage: hello-world [NAME]
let arguments = CommandLine.arguments.dropFirst()
print(HelloWorld().greeting(for: arguments.first ?? HelloWorld.defaultName))
