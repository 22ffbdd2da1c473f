package dev.speechscale.server;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Hand-encodes ONNX protobuf messages, so tests can build a stand-in model without any model file
 * or ONNX tooling. Field numbers follow onnx.proto.
 */
final class OnnxWriter {
  static final int FLOAT = 1;
  static final int INT64 = 7;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  byte[] bytes() {
    return out.toByteArray();
  }

  OnnxWriter varint(int field, long value) {
    key(field, 0);
    raw(value);
    return this;
  }

  OnnxWriter string(int field, String value) {
    return bytes(field, value.getBytes(StandardCharsets.UTF_8));
  }

  OnnxWriter message(int field, OnnxWriter message) {
    return bytes(field, message.bytes());
  }

  OnnxWriter fixed32(int field, float value) {
    key(field, 5);
    int bits = Float.floatToIntBits(value);
    for (int i = 0; i < 4; i++) {
      out.write((bits >>> (8 * i)) & 0xff);
    }
    return this;
  }

  OnnxWriter bytes(int field, byte[] value) {
    key(field, 2);
    raw(value.length);
    out.writeBytes(value);
    return this;
  }

  private void key(int field, int wireType) {
    raw(((long) field << 3) | wireType);
  }

  private void raw(long value) {
    long v = value;
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  // ---- ONNX messages ----

  static OnnxWriter floatTensor(String name, long[] dims, float... values) {
    OnnxWriter t = new OnnxWriter();
    for (long d : dims) {
      t.varint(1, d);
    }
    t.varint(2, FLOAT);
    t.string(8, name);
    ByteBuffer raw = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (float v : values) {
      raw.putFloat(v);
    }
    return t.bytes(9, raw.array());
  }

  static OnnxWriter int64Tensor(String name, long[] dims, long... values) {
    OnnxWriter t = new OnnxWriter();
    for (long d : dims) {
      t.varint(1, d);
    }
    t.varint(2, INT64);
    t.string(8, name);
    ByteBuffer raw = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
    for (long v : values) {
      raw.putLong(v);
    }
    return t.bytes(9, raw.array());
  }

  /** A node; attributes are pre-built AttributeProto writers. */
  static OnnxWriter node(String op, String[] inputs, String output, OnnxWriter... attributes) {
    OnnxWriter n = new OnnxWriter();
    for (String in : inputs) {
      n.string(1, in);
    }
    n.string(2, output);
    n.string(3, output + "_node");
    n.string(4, op);
    for (OnnxWriter a : attributes) {
      n.message(5, a);
    }
    return n;
  }

  static OnnxWriter intAttribute(String name, long value) {
    return new OnnxWriter().string(1, name).varint(3, value).varint(20, 2);
  }

  /** A tensor value info; a dimension is a Long (fixed) or a String (symbolic). */
  static OnnxWriter valueInfo(String name, int elemType, Object... dims) {
    OnnxWriter shape = new OnnxWriter();
    for (Object d : dims) {
      OnnxWriter dim = new OnnxWriter();
      if (d instanceof Long v) {
        dim.varint(1, v);
      } else {
        dim.string(2, (String) d);
      }
      shape.message(1, dim);
    }
    OnnxWriter tensorType = new OnnxWriter().varint(1, elemType).message(2, shape);
    OnnxWriter type = new OnnxWriter().message(1, tensorType);
    return new OnnxWriter().string(1, name).message(2, type);
  }
}
