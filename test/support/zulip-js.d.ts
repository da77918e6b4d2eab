// zulip-js ships no types; what the tests call.
declare module 'zulip-js' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped JSON from the library
  type Json = Record<string, any>;
  interface Client {
    queues: { register(p: Json): Promise<Json>; deregister(p: Json): Promise<Json> };
    messages: { send(p: Json): Promise<Json> };
    typing: { send(p: Json): Promise<Json> };
    callEndpoint(endpoint: string, method?: string, params?: Json): Promise<Json>;
    events: { retrieve(p: Json): Promise<Json> };
    callOnEachEvent(cb: (event: Json) => void, eventTypes?: string[]): Promise<void>;
    users: { me: { getProfile(): Promise<Json>; alertWords: { retrieve(): Promise<Json> } } };
    callEndpoint(endpoint: string, method?: string, params?: Json): Promise<Json>;
  }
  export default function zulip(config: { username: string; apiKey: string; realm: string }): Promise<Client>;
}
