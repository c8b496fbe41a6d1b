// The room's protocol for the browser: one WebSocket to /ws speaking pokerroom.v1.json.
// request() resolves with the answer when ok, and rejects with a RoomError (code, sentence, rule) when not;
// on(type, handler) receives pushes (table_events, tournament_event, chat, ...). Nothing else talks to the server.

export class RoomError extends Error {
  constructor(error) {
    super(error.message);
    this.code = error.code;
    this.rule = error.rule || "";
  }
  // The sentence a person reads, with the rule ID when one applies.
  get text() {
    return this.rule ? `${this.message} (${this.rule})` : this.message;
  }
}

export class Room {
  constructor(url = Room.defaultUrl()) {
    this.url = url;
    this.rid = 0;
    this.pending = new Map();
    this.handlers = new Map();
    this.socket = null;
    this.closed = null;          // {code, reason} once the socket has closed
  }

  static defaultUrl() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws`;
  }

  connect() {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url, "pokerroom.v1.json");
      this.socket = socket;
      socket.onopen = () => resolve(this);
      socket.onerror = () => reject(new RoomError({ code: "connection_failed", message: "could not reach the room" }));
      socket.onmessage = (frame) => this._received(JSON.parse(frame.data));
      socket.onclose = (e) => {
        this.closed = { code: e.code, reason: e.reason };
        for (const { reject: fail } of this.pending.values()) {
          fail(new RoomError({ code: "connection_closed", message: e.reason || "the connection closed" }));
        }
        this.pending.clear();
        this._emit("closed", this.closed);
      };
    });
  }

  request(type, fields = {}) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new RoomError({ code: "connection_closed", message: "not connected to the room" }));
    }
    const rid = ++this.rid;
    return new Promise((resolve, reject) => {
      this.pending.set(rid, { resolve, reject });
      this.socket.send(JSON.stringify({ type, rid, ...fields }));
    });
  }

  on(type, handler) {
    if (!this.handlers.has(type)) this.handlers.set(type, []);
    this.handlers.get(type).push(handler);
    return () => this.handlers.set(type, this.handlers.get(type).filter((h) => h !== handler));
  }

  _emit(type, message) {
    for (const handler of this.handlers.get(type) || []) handler(message);
    for (const handler of this.handlers.get("*") || []) handler(message);
  }

  _received(message) {
    const waiting = message.rid != null ? this.pending.get(message.rid) : undefined;
    if (waiting && "ok" in message) {
      this.pending.delete(message.rid);
      if (message.ok) waiting.resolve(message);
      else waiting.reject(new RoomError(message.error));
      return;
    }
    if (message.ok === false && message.error) {        // an error with no request to go to
      this._emit("error", message);
      return;
    }
    this._emit(message.type, message);
  }

  close() {
    if (this.socket) this.socket.close(1000, "bye");
  }
}

// A session kept across page reloads: the token is stored for this tab only (sessionStorage), never the password.
export function remember(login) {
  sessionStorage.setItem("pokerroom.session", JSON.stringify({ token: login.token, nickname: login.nickname }));
}

export function remembered() {
  try {
    return JSON.parse(sessionStorage.getItem("pokerroom.session") || "null");
  } catch {
    return null;
  }
}

export function forget() {
  sessionStorage.removeItem("pokerroom.session");
}
